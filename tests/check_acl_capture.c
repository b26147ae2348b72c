/* tests/check_acl_capture.c - stream capture into model runtime instances (acl/capture.c): what a
 * capture records does not run; executing the instance runs it again each time, with the host and
 * device data of that moment, on the model (a kernel row in op_summary per execution); streams join
 * a capture through events; misuse fails with CANN's codes and a message naming the call. */
#define _DEFAULT_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "dv/kapi.h"
#include "dvsim/acl_launch.h"
#include "support/aclt.h"

enum { ELEMS = 1024, BLOCKS = 2, BYTES = BLOCKS * ELEMS * 4 };

/* y = relu(x), ELEMS fp32 per block. */
static void relu_kernel(dv_k_t *k, const void *p)
{
    (void)p;
    uint64_t off = (uint64_t)dvk_block_idx(k) * ELEMS * 4;
    uint64_t buf = dvk_alloc(k, DV_SPACE_UB, ELEMS * 4);
    int ev = dvk_event_alloc(k, DV_PIPE_MTE2, DV_PIPE_V), ev2 = dvk_event_alloc(k, DV_PIPE_V, DV_PIPE_MTE3);
    dvk_copy_gm_to_ubuf(k, buf, dvk_gm(k, 0, off), 1, ELEMS * 4 / 32, 0, 0);
    dvk_set_flag(k, DV_PIPE_MTE2, DV_PIPE_V, ev);
    dvk_wait_flag(k, DV_PIPE_MTE2, DV_PIPE_V, ev);
    dvk_vrelu(k, buf, buf, DV_DT_F32, ELEMS / 64, 1, 1, 8, 8);
    dvk_set_flag(k, DV_PIPE_V, DV_PIPE_MTE3, ev2);
    dvk_wait_flag(k, DV_PIPE_V, DV_PIPE_MTE3, ev2);
    dvk_copy_ubuf_to_gm(k, dvk_gm(k, 1, off), buf, 1, ELEMS * 4 / 32, 0, 0);
}

static void fill(float *h, float sign)
{
    for (int i = 0; i < BYTES / 4; i++)
        h[i] = sign * (float)((i % 13) - 6);
}

static void check_relu(const float *hx, const float *hy)
{
    for (int i = 0; i < BYTES / 4; i++)
        ck_assert_float_eq(hy[i], hx[i] > 0 ? hx[i] : 0.0f);
}

static int csv_rows_with(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    char line[8192];
    int n = 0;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        n += strstr(line, needle) != NULL;
    fclose(f);
    return n;
}

/* One stream: host -> device, relu, device -> host, captured once and executed three times. */
START_TEST(test_acl_capture_single_stream_replays)
{
    char dir[] = "/tmp/dvsim_capture_XXXXXX", csv[128];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(csv, sizeof csv, "%s/op_summary.csv", dir);
    uint32_t devs[1] = {0};
    float *hx, *hy;
    void *x, *y;
    aclrtStream s;
    aclmdlRI ri = NULL, info = NULL;
    aclmdlRICaptureStatus st;
    aclrtEvent e0, e1;
    float ms1, ms2;
    up();
    OK(aclrtCreateStream(&s));
    OK(aclrtMallocHost((void **)&hx, BYTES));
    OK(aclrtMallocHost((void **)&hy, BYTES));
    OK(aclrtMalloc(&x, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&y, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtCreateEvent(&e0));
    OK(aclrtCreateEvent(&e1));
    fill(hx, 1.0f);
    memset(hy, 0x7f, BYTES);
    void *gm[2] = {x, y};
    OK(aclmdlRICaptureGetInfo(s, &st, &info));
    ck_assert_int_eq(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    OK(aclmdlRICaptureGetInfo(s, &st, &info));
    ck_assert_int_eq(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    ck_assert_ptr_nonnull(info);
    OK(aclrtMemcpyAsync(x, BYTES, hx, BYTES, ACL_MEMCPY_HOST_TO_DEVICE, s));
    OK(dvsimLaunchKernel("relu", relu_kernel, DV_KIND_VECTOR, BLOCKS, s, gm, 2, NULL, 0));
    OK(aclrtMemcpyAsync(hy, BYTES, y, BYTES, ACL_MEMCPY_DEVICE_TO_HOST, s));
    OK(aclmdlRICaptureEnd(s, &ri));
    ck_assert_ptr_eq(ri, info);
    OK(aclmdlRICaptureGetInfo(s, &st, &info));
    ck_assert_int_eq(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    /* recorded, not run */
    OK(aclrtSynchronizeStream(s));
    ck_assert_uint_eq(((uint8_t *)hy)[0], 0x7f);
    /* every execution runs the kernel on the model again, with the data of that moment */
    OK(aclprofInit(dir, strlen(dir)));
    aclprofConfig *pc = aclprofCreateConfig(devs, 1, ACL_AICORE_PIPE_UTILIZATION, NULL, ACL_PROF_TASK_TIME);
    OK(aclprofStart(pc));
    OK(aclmdlRIExecuteAsync(ri, s));
    OK(aclrtSynchronizeStream(s));
    check_relu(hx, hy);
    fill(hx, -1.0f);
    OK(aclrtRecordEvent(e0, s));
    OK(aclmdlRIExecuteAsync(ri, s));
    OK(aclrtRecordEvent(e1, s));
    OK(aclrtSynchronizeStream(s));
    check_relu(hx, hy);
    OK(aclrtEventElapsedTime(&ms1, e0, e1));
    OK(aclmdlRIExecute(ri, -1)); /* the default stream, waited for */
    OK(aclrtRecordEvent(e0, s));
    OK(aclmdlRIExecuteAsync(ri, s));
    OK(aclrtRecordEvent(e1, s));
    OK(aclrtSynchronizeStream(s));
    OK(aclrtEventElapsedTime(&ms2, e0, e1));
    ck_assert_float_gt(ms1, 0.0f);
    ck_assert_float_eq(ms1, ms2); /* the same work on a warm model takes the same time */
    OK(aclprofStop(pc));
    OK(aclprofDestroyConfig(pc));
    OK(aclprofFinalize());
    ck_assert_int_eq(csv_rows_with(csv, ",\"relu\",\"relu\","), 4);
    /* the JSON dump names each task */
    char js[128];
    snprintf(js, sizeof js, "%s/ri.json", dir);
    OK(aclmdlRIDebugJsonPrint(ri, js, ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE));
    ck_assert_int_eq(csv_rows_with(js, "\"task_type\""), 3);
    ck_assert_int_eq(csv_rows_with(js, "\"task_type\": \"KERNEL\", \"kernel\": \"relu\", \"block_dim\": 2, \"args\""),
                     1);
    OK(aclmdlRIDestroy(ri));
    FAILS(aclmdlRIExecuteAsync(ri, s), ACL_ERROR_INVALID_PARAM, "aclmdlRIExecuteAsync: ");
    FAILS(aclmdlRIDestroy(ri), ACL_ERROR_INVALID_PARAM, "not a live model instance");
    OK(aclrtFreeHost(hx));
    OK(aclrtFreeHost(hy));
    down();
    const char *left[] = {"op_summary.csv", "op_hotspot.csv", "timeline.json", "ri.json"};
    for (size_t i = 0; i < sizeof left / sizeof left[0]; i++) {
        snprintf(js, sizeof js, "%s/%s", dir, left[i]);
        unlink(js);
    }
    rmdir(dir);
}
END_TEST

/* A second stream joins by waiting on an event recorded in the capture and joins back the same way. */
START_TEST(test_acl_capture_two_streams)
{
    float *hx, *hy;
    void *x, *y;
    aclrtStream s0, s1;
    aclrtEvent ready, done;
    aclmdlRI ri = NULL, info = NULL;
    aclmdlRICaptureStatus st;
    up();
    OK(aclrtCreateStream(&s0));
    OK(aclrtCreateStream(&s1));
    OK(aclrtCreateEventExWithFlag(&ready, ACL_EVENT_SYNC));
    OK(aclrtCreateEventExWithFlag(&done, ACL_EVENT_SYNC));
    OK(aclrtMallocHost((void **)&hx, BYTES));
    OK(aclrtMallocHost((void **)&hy, BYTES));
    OK(aclrtMalloc(&x, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&y, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    void *gm[2] = {x, y};
    OK(aclmdlRICaptureBegin(s0, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    OK(aclrtMemcpyAsync(x, BYTES, hx, BYTES, ACL_MEMCPY_HOST_TO_DEVICE, s0));
    OK(aclrtRecordEvent(ready, s0));
    OK(aclrtStreamWaitEvent(s1, ready));
    OK(aclmdlRICaptureGetInfo(s1, &st, &info));
    ck_assert_int_eq(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    OK(dvsimLaunchKernel("relu", relu_kernel, DV_KIND_VECTOR, BLOCKS, s1, gm, 2, NULL, 0));
    OK(aclrtRecordEvent(done, s1));
    FAILS(aclmdlRICaptureEnd(s1, &ri), ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED, "end it there");
    OK(aclrtStreamWaitEvent(s0, done));
    OK(aclrtMemcpyAsync(hy, BYTES, y, BYTES, ACL_MEMCPY_DEVICE_TO_HOST, s0));
    OK(aclmdlRICaptureEnd(s0, &ri));
    ck_assert_ptr_eq(ri, info);
    OK(aclmdlRICaptureGetInfo(s1, &st, &info));
    ck_assert_int_eq(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    OK(aclrtDestroyEvent(ready)); /* the instance keeps what it needs */
    OK(aclrtDestroyEvent(done));
    for (int run = 0; run < 3; run++) {
        fill(hx, run % 2 ? -1.0f : 1.0f);
        memset(hy, 0x7f, BYTES);
        OK(aclmdlRIExecuteAsync(ri, s0));
        OK(aclrtSynchronizeStream(s0));
        check_relu(hx, hy);
    }
    OK(aclmdlRIDestroy(ri));
    OK(aclrtFreeHost(hx));
    OK(aclrtFreeHost(hy));
    down();
}
END_TEST

START_TEST(test_acl_capture_errors)
{
    char path[64];
    void *x, *y;
    uint8_t h[64] = {0};
    aclrtStream s, s1;
    aclrtEvent ev;
    aclmdlRI ri = NULL, info = NULL;
    aclmdlRICaptureStatus st;
    FAILS(aclmdlRICaptureBegin(NULL, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_UNINITIALIZE, "aclInit");
    up();
    OK(aclrtCreateStream(&s));
    OK(aclrtCreateStream(&s1));
    OK(aclrtCreateEvent(&ev));
    OK(aclrtMalloc(&x, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&y, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    FAILS(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_NOT_CAPTURED,
          "aclmdlRICaptureEnd: stream 1 is not capturing");
    FAILS(aclmdlRICaptureBegin(NULL, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_INVALID_PARAM, "default stream");
    FAILS(aclmdlRICaptureBegin(s, (aclmdlRICaptureMode)7), ACL_ERROR_INVALID_PARAM, "mode 7");
    FAILS(aclmdlRIExecuteAsync(NULL, s), ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
    FAILS(aclmdlRIExecuteAsync(&ri, s), ACL_ERROR_INVALID_PARAM, "not a live model instance");
    OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    FAILS(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_STREAM_CAPTURED, "already capturing");
    /* synchronising calls are refused while a GLOBAL capture runs, from any stream */
    FAILS(aclrtSynchronizeStream(s1), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC,
          "aclrtSynchronizeStream: stream 1 is capturing");
    FAILS(aclrtSynchronizeDevice(), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC, "aclrtSynchronizeDevice");
    FAILS(aclrtSynchronizeEvent(ev), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC, "aclrtSynchronizeEvent");
    FAILS(aclrtMemcpy(y, 64, h, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC, "aclrtMemcpy");
    FAILS(aclrtDestroyStream(s), ACL_ERROR_RT_STREAM_CAPTURED, "aclrtDestroyStream: stream 1 is capturing");
    OK(aclmdlRICaptureGetInfo(s, &st, &info));
    FAILS(aclmdlRIExecuteAsync(info, s1), ACL_ERROR_RT_MODEL_CAPTURED, "still capturing");
    FAILS(aclmdlRIDestroy(info), ACL_ERROR_RT_MODEL_CAPTURED, "still capturing");
    /* a joined stream that never joins back */
    OK(aclrtRecordEvent(ev, s));
    OK(aclrtStreamWaitEvent(s1, ev));
    OK(aclrtMemcpyAsync(x, 64, y, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, s1));
    FAILS(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_UNJOINED, "stream 2 joined the capture");
    OK(aclmdlRICaptureGetInfo(s1, &st, &info));
    ck_assert_int_eq(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    OK(aclrtSynchronizeDevice()); /* the capture is over */
    /* RELAXED allows synchronising; an instance cannot execute into a capture */
    OK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    OK(aclrtMemcpyAsync(x, 64, h, 64, ACL_MEMCPY_HOST_TO_DEVICE, s1));
    OK(aclrtSynchronizeDevice());
    OK(aclmdlRICaptureEnd(s1, &ri));
    OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
    FAILS(aclrtSynchronizeStream(s1), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC, "mode THREAD_LOCAL");
    FAILS(aclmdlRIExecuteAsync(ri, s), ACL_ERROR_RT_STREAM_CAPTURED, "cannot be executed into a capture");
    FAILS(aclmdlRIExecute(ri, -1), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC, "aclmdlRIExecute");
    OK(aclmdlRICaptureEnd(s, &info));
    OK(aclmdlRIDestroy(info)); /* an empty instance */
    FAILS(aclmdlRIExecute(ri, -2), ACL_ERROR_INVALID_PARAM, "timeout -2");
    FAILS(aclmdlRIDebugJsonPrint(ri, NULL, 0), ACL_ERROR_INVALID_PARAM, "path is NULL");
    FAILS(aclmdlRIDebugJsonPrint(ri, "/nonexistent/dir/ri.json", 0), ACL_ERROR_RT_FILE_OPEN, "/nonexistent/dir");
    FAILS(aclmdlRIDebugJsonPrint(ri, "/tmp/x.json", 2), ACL_ERROR_INVALID_PARAM, "flags 0x2");
    snprintf(path, sizeof path, "/tmp/dvsim_ri_%d.json", (int)getpid());
    OK(aclmdlRIDebugJsonPrint(ri, path, ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY));
    ck_assert_int_eq(count_lines(path), 6); /* {, model_ri, tasks [, one task, ], } */
    unlink(path);
    /* an instance left alive goes with the session */
    down();
}
END_TEST

Suite *dv_acl_capture_suite(void)
{
    Suite *s = suite_create("acl_capture");
    TCase *t = tcase_create("capture");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, test_acl_capture_single_stream_replays);
    tcase_add_test(t, test_acl_capture_two_streams);
    tcase_add_test(t, test_acl_capture_errors);
    suite_add_tcase(s, t);
    return s;
}
