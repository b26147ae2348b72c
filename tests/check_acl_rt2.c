/* tests/check_acl_rt2.c - runtime calls the hicann/runtime samples make (issue 19): stream state
 * callbacks, exception callbacks and error details of a failing kernel, the floating point
 * overflow mode and its detection, CANN attributes and architecture
 * compatibility, and securec.h from C.  What the simulated device does works; what it cannot do
 * fails with ACL_ERROR_RT_FEATURE_NOT_SUPPORT and a message naming the call. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "acl/acl.h"
#include "ascendc/securec.h"
#include "dv/kapi.h"
#include "dvsim/acl_launch.h"
#include "support/aclt.h"

enum { MAX_SEEN = 8 };
static struct {
    int n;
    aclrtStream stream[MAX_SEEN];
    aclrtStreamState state[MAX_SEEN];
    void *args[MAX_SEEN];
} g_seen;

static void on_state(aclrtStream stm, aclrtStreamState state, void *args)
{
    if (g_seen.n < MAX_SEEN) {
        g_seen.stream[g_seen.n] = stm;
        g_seen.state[g_seen.n] = state;
        g_seen.args[g_seen.n] = args;
    }
    g_seen.n++;
}

START_TEST(test_acl_rt2_stream_state_callback)
{
    int tag = 0;
    aclrtStream s = NULL, c = NULL;
    up();
    OK(aclrtRegStreamStateCallback("rt2", on_state, &tag));
    OK(aclrtCreateStream(&s));
    ck_assert_int_eq(g_seen.n, 1);
    ck_assert_ptr_eq(g_seen.stream[0], s);
    ck_assert_int_eq(g_seen.state[0], ACL_RT_STREAM_STATE_CREATE_POST);
    ck_assert_ptr_eq(g_seen.args[0], &tag);
    OK(aclrtCreateStreamWithConfig(&c, 0, ACL_STREAM_DEVICE_USE_ONLY));
    ck_assert_int_eq(g_seen.n, 2);
    ck_assert_ptr_eq(g_seen.stream[1], c);
    OK(aclrtDestroyStream(s));
    ck_assert_int_eq(g_seen.n, 3);
    ck_assert_ptr_eq(g_seen.stream[2], s);
    ck_assert_int_eq(g_seen.state[2], ACL_RT_STREAM_STATE_DESTROY_PRE);
    /* a failed destruction tells nobody */
    FAILS(aclrtDestroyStream(s), ACL_ERROR_INVALID_PARAM, "not a live stream");
    ck_assert_int_eq(g_seen.n, 3);
    /* removed: no more calls */
    OK(aclrtRegStreamStateCallback("rt2", NULL, NULL));
    OK(aclrtDestroyStreamForce(c));
    ck_assert_int_eq(g_seen.n, 3);
    FAILS(aclrtRegStreamStateCallback("rt2", NULL, NULL), ACL_ERROR_INVALID_PARAM, "no callback is registered as \"rt2\"");
    FAILS(aclrtRegStreamStateCallback(NULL, on_state, NULL), ACL_ERROR_INVALID_PARAM,
          "aclrtRegStreamStateCallback: regName is NULL");
    char name[16];
    for (int i = 0; i < 8; i++) {
        snprintf(name, sizeof name, "n%d", i);
        OK(aclrtRegStreamStateCallback(name, on_state, NULL));
    }
    FAILS(aclrtRegStreamStateCallback("ninth", on_state, NULL), ACL_ERROR_INVALID_PARAM, "8 callbacks are registered");
    OK(aclrtRegStreamStateCallback("n3", on_state, &tag)); /* a known name is replaced, not added */
    down();
}
END_TEST

START_TEST(test_acl_rt2_overflow_mode)
{
    aclrtFloatOverflowMode mode = ACL_RT_OVERFLOW_MODE_UNDEF;
    aclrtStream s = NULL;
    uint32_t flag = 7;
    void *dev = NULL;
    FAILS(aclrtGetDeviceSatMode(&mode), ACL_ERROR_UNINITIALIZE, "aclrtGetDeviceSatMode");
    up();
    OK(aclrtGetDeviceSatMode(&mode));
    ck_assert_int_eq(mode, ACL_RT_OVERFLOW_MODE_INFNAN);
    OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN));
    FAILS(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
          "aclrtSetDeviceSatMode: not supported: saturation mode");
    FAILS(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_UNDEF), ACL_ERROR_INVALID_PARAM, "unknown mode 2");
    FAILS(aclrtGetDeviceSatMode(NULL), ACL_ERROR_INVALID_PARAM, "mode is NULL");
    OK(aclrtCreateStream(&s));
    OK(aclrtGetStreamOverflowSwitch(s, &flag));
    ck_assert_uint_eq(flag, 0);
    OK(aclrtSetStreamOverflowSwitch(s, 0));
    FAILS(aclrtSetStreamOverflowSwitch(s, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtSetStreamOverflowSwitch");
    FAILS(aclrtGetStreamOverflowSwitch(s, NULL), ACL_ERROR_INVALID_PARAM, "flag is NULL");
    OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    FAILS(aclrtGetOverflowStatus(dev, 64, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtGetOverflowStatus: not supported");
    FAILS(aclrtResetOverflowStatus(NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtResetOverflowStatus: not supported");
    OK(aclrtDestroyStream(s));
    FAILS(aclrtGetStreamOverflowSwitch(s, &flag), ACL_ERROR_INVALID_PARAM,
          "aclrtGetStreamOverflowSwitch: ");
    OK(aclrtFree(dev));
    down();
}
END_TEST

START_TEST(test_acl_rt2_cann_attributes)
{
    const aclCannAttr *list = NULL;
    size_t n = 0;
    int32_t v = -1;
    int found = 0;
    OK(aclGetCannAttributeList(&list, &n));
    ck_assert_uint_eq(n, 3);
    for (size_t i = 0; i < n; i++) {
        OK(aclGetCannAttribute(list[i], &v));
        ck_assert(v == 0 || v == 1);
        found |= 1 << list[i];
    }
    ck_assert_int_eq(found, 7);
    OK(aclGetCannAttribute(ACL_CANN_ATTR_INF_NAN, &v));
    ck_assert_int_eq(v, 1);
    OK(aclGetCannAttribute(ACL_CANN_ATTR_BF16, &v));
    ck_assert_int_eq(v, 1);
    OK(aclGetCannAttribute(ACL_CANN_ATTR_JIT_COMPILE, &v));
    ck_assert_int_eq(v, 0);
    FAILS(aclGetCannAttribute((aclCannAttr)9, &v), ACL_ERROR_INVALID_PARAM, "unknown attribute 9");
    FAILS(aclGetCannAttribute(ACL_CANN_ATTR_BF16, NULL), ACL_ERROR_INVALID_PARAM, "value is NULL");
    FAILS(aclGetCannAttributeList(&list, NULL), ACL_ERROR_INVALID_PARAM, "num is NULL");
}
END_TEST

START_TEST(test_acl_rt2_arch_compatibility)
{
    int32_t ok = -1;
    FAILS(aclrtCheckArchCompatibility("Ascend910B2", &ok), ACL_ERROR_UNINITIALIZE, "aclrtCheckArchCompatibility");
    up();
    const char *soc = aclrtGetSocName();
    ck_assert_ptr_nonnull(soc);
    OK(aclrtCheckArchCompatibility(soc, &ok));
    ck_assert_int_eq(ok, 1);
    OK(aclrtCheckArchCompatibility(strcmp(soc, "Ascend310P3") ? "Ascend310P3" : "Ascend910B2", &ok));
    ck_assert_int_eq(ok, 0);
    FAILS(aclrtCheckArchCompatibility(NULL, &ok), ACL_ERROR_INVALID_PARAM, "socVersion is NULL");
    FAILS(aclrtCheckArchCompatibility(soc, NULL), ACL_ERROR_INVALID_PARAM, "canCompatible is NULL");
    down();
}
END_TEST

enum { COPY_ELEMS = 1024 };

/* gm1 = gm0, COPY_ELEMS fp32 through UB: it faults when gm1's allocation is shorter. */
static void copy_kernel(dv_k_t *k, const void *p)
{
    (void)p;
    uint64_t buf = dvk_alloc(k, DV_SPACE_UB, COPY_ELEMS * 4);
    int ev = dvk_event_alloc(k, DV_PIPE_MTE2, DV_PIPE_MTE3);
    dvk_copy_gm_to_ubuf(k, buf, dvk_gm(k, 0, 0), 1, COPY_ELEMS * 4 / 32, 0, 0);
    dvk_set_flag(k, DV_PIPE_MTE2, DV_PIPE_MTE3, ev);
    dvk_wait_flag(k, DV_PIPE_MTE2, DV_PIPE_MTE3, ev);
    dvk_copy_ubuf_to_gm(k, dvk_gm(k, 1, 0), buf, 1, COPY_ELEMS * 4 / 32, 0, 0);
}

static struct {
    int calls, set_calls;
    uint32_t task, stream, thread, device, code;
    int args_rc;
} g_exc;

static void on_exception(aclrtExceptionInfo *info)
{
    void *args = NULL;
    uint32_t len = 0;
    g_exc.calls++;
    g_exc.task = aclrtGetTaskIdFromExceptionInfo(info);
    g_exc.stream = aclrtGetStreamIdFromExceptionInfo(info);
    g_exc.thread = aclrtGetThreadIdFromExceptionInfo(info);
    g_exc.device = aclrtGetDeviceIdFromExceptionInfo(info);
    g_exc.code = aclrtGetErrorCodeFromExceptionInfo(info);
    g_exc.args_rc = aclrtGetArgsFromExceptionInfo(info, &args, &len); /* fails: must not hide the task's message */
}

static void on_exception_set(aclrtExceptionInfo *info)
{
    (void)info;
    g_exc.set_calls++;
}

START_TEST(test_acl_rt2_exception_callback)
{
    void *x, *y, *big;
    aclrtStream s;
    uint32_t first = 0, last = 0;
    int32_t sid = -1;
    aclrtErrorInfo ei;
    up();
    OK(aclrtExceptionInfoCallbackRegister(on_exception));
    OK(aclrtSetExceptionInfoCallback(on_exception_set));
    FAILS(aclrtExceptionInfoCallbackRegister(on_exception), ACL_ERROR_INVALID_PARAM, "registered already");
    FAILS(aclrtExceptionInfoCallbackRegister(NULL), ACL_ERROR_INVALID_PARAM, "callback is NULL");
    FAILS(aclrtGetThreadLastTaskId(&last), ACL_ERROR_INVALID_PARAM, "queued no task");
    OK(aclrtCreateStream(&s));
    OK(aclrtStreamGetId(s, &sid));
    OK(aclrtMalloc(&x, COPY_ELEMS * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&big, COPY_ELEMS * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&y, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMemset(x, COPY_ELEMS * 4, 0, COPY_ELEMS * 4));
    void *good[2] = {x, big}, *bad[2] = {x, y};
    /* a kernel that works calls nobody */
    OK(dvsimLaunchKernel("copy", copy_kernel, DV_KIND_VECTOR, 1, s, good, 2, NULL, 0));
    OK(aclrtGetThreadLastTaskId(&first));
    OK(aclrtSynchronizeStream(s));
    ck_assert_int_eq(g_exc.calls, 0);
    memset(&ei, 0xff, sizeof ei);
    OK(aclrtGetErrorVerbose(0, &ei));
    ck_assert_int_eq(ei.errorType, ACL_RT_NO_ERROR);
    ck_assert_int_eq(ei.hasDetail, 0);
    /* one that overruns y calls both callbacks, once, with its ids */
    OK(dvsimLaunchKernel("copy", copy_kernel, DV_KIND_VECTOR, 1, s, bad, 2, NULL, 0));
    OK(aclrtGetThreadLastTaskId(&last));
    ck_assert_uint_gt(last, first);
    int rc = aclrtSynchronizeStream(s);
    ck_assert(rc == ACL_ERROR_RT_VECTOR_CORE_EXCEPTION || rc == ACL_ERROR_RT_AICORE_EXCEPTION);
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "outside argument"));
    ck_assert_int_eq(g_exc.calls, 1);
    ck_assert_int_eq(g_exc.set_calls, 1);
    ck_assert_uint_eq(g_exc.task, last);
    ck_assert_uint_eq(g_exc.stream, (uint32_t)sid);
    ck_assert_uint_eq(g_exc.thread, 1); /* the first thread that queued work */
    ck_assert_uint_eq(g_exc.device, 0);
    ck_assert_uint_eq(g_exc.code, (uint32_t)rc);
    ck_assert_int_eq(g_exc.args_rc, ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    OK(aclrtGetErrorVerbose(0, &ei));
    ck_assert_int_eq(ei.errorType, ACL_RT_ERROR_AICORE);
    ck_assert_int_eq(ei.hasDetail, 1);
    ck_assert_int_eq(ei.tryRepair, 0);
    ck_assert_int_eq(ei.detail.aicoreErrType, ACL_RT_AICORE_ERROR_SW);
    FAILS(aclrtGetErrorVerbose(1, &ei), ACL_ERROR_RT_INVALID_DEVICEID, "device 1");
    FAILS(aclrtGetErrorVerbose(0, NULL), ACL_ERROR_INVALID_PARAM, "errorInfo is NULL");
    ck_assert_uint_eq(aclrtGetTaskIdFromExceptionInfo(NULL), UINT32_MAX);
    /* unregistered and unset: the next failure calls nobody */
    OK(aclrtExceptionInfoCallbackUnregister(on_exception));
    FAILS(aclrtExceptionInfoCallbackUnregister(on_exception), ACL_ERROR_INVALID_PARAM, "not registered");
    OK(aclrtSetExceptionInfoCallback(NULL));
    OK(dvsimLaunchKernel("copy", copy_kernel, DV_KIND_VECTOR, 1, s, bad, 2, NULL, 0));
    ck_assert_int_ne(aclrtSynchronizeStream(s), ACL_SUCCESS);
    ck_assert_int_eq(g_exc.calls, 1);
    ck_assert_int_eq(g_exc.set_calls, 1);
    OK(aclrtFree(x));
    OK(aclrtFree(y));
    OK(aclrtFree(big));
    down();
    /* a new session: no error, no task of this thread */
    up();
    OK(aclrtGetErrorVerbose(0, &ei));
    ck_assert_int_eq(ei.errorType, ACL_RT_NO_ERROR);
    FAILS(aclrtGetThreadLastTaskId(&last), ACL_ERROR_INVALID_PARAM, "queued no task");
    down();
}
END_TEST

/* The thread's capture interaction mode decides whether it may make a synchronising call while a
 * GLOBAL capture runs. */
START_TEST(test_acl_rt2_capture_thread_mode)
{
    aclrtStream s;
    aclmdlRI ri = NULL;
    void *dev;
    uint8_t h[64] = {1};
    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    up();
    OK(aclrtCreateStream(&s));
    OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    FAILS(aclrtMemcpy(dev, 64, h, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC, "mode GLOBAL");
    OK(aclmdlRICaptureThreadExchangeMode(&mode));
    ck_assert_int_eq(mode, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL); /* every thread starts GLOBAL */
    OK(aclrtMemcpy(dev, 64, h, 64, ACL_MEMCPY_HOST_TO_DEVICE)); /* runs now, outside the capture */
    OK(aclmdlRICaptureThreadExchangeMode(&mode));
    ck_assert_int_eq(mode, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
    FAILS(aclrtMemcpy(dev, 64, h, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC, "mode GLOBAL");
    mode = ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL; /* still this thread's capture: still blocked */
    OK(aclmdlRICaptureThreadExchangeMode(&mode));
    FAILS(aclrtMemcpy(dev, 64, h, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC, "mode GLOBAL");
    mode = (aclmdlRICaptureMode)5;
    FAILS(aclmdlRICaptureThreadExchangeMode(&mode), ACL_ERROR_INVALID_PARAM, "unknown mode 5");
    FAILS(aclmdlRICaptureThreadExchangeMode(NULL), ACL_ERROR_INVALID_PARAM, "mode is NULL");
    OK(aclmdlRICaptureEnd(s, &ri));
    OK(aclmdlRIDestroy(ri));
    memset(h, 0, sizeof h);
    OK(aclrtMemcpy(h, 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    ck_assert_uint_eq(h[0], 1); /* the RELAXED copy ran */
    OK(aclrtFree(dev));
    down();
}
END_TEST

/* aclrtCreateStreamV2 creates a stream with the priority and flags its configuration handle holds. */
START_TEST(test_acl_rt2_stream_config_handle)
{
    aclrtStream s;
    uint32_t flags = ACL_STREAM_FAST_LAUNCH | ACL_STREAM_HUGE, prio = 3, got = 0;
    uint64_t flags64 = ACL_STREAM_FAST_SYNC;
    uint32_t gprio = 0;
    size_t sz = 64;
    up();
    aclrtStreamConfigHandle *h = aclrtCreateStreamConfigHandle();
    ck_assert_ptr_nonnull(h);
    OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flags, sizeof flags));
    OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio, sizeof prio));
    OK(aclrtCreateStreamV2(&s, h));
    OK(aclrtStreamGetFlags(s, &got));
    ck_assert_uint_eq(got, flags);
    OK(aclrtStreamGetPriority(s, &gprio));
    ck_assert_uint_eq(gprio, 3);
    OK(aclrtDestroyStream(s));
    OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flags64, sizeof flags64));
    OK(aclrtCreateStreamV2(&s, h));
    OK(aclrtStreamGetFlags(s, &got));
    ck_assert_uint_eq(got, ACL_STREAM_FAST_SYNC);
    OK(aclrtDestroyStream(s));
    FAILS(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &flags64, sizeof flags64), ACL_ERROR_INVALID_PARAM,
          "takes 4 bytes, not 8");
    FAILS(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_SIZE, &sz, sizeof sz), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
          "aclrtSetStreamConfigOpt: not supported");
    FAILS(aclrtSetStreamConfigOpt(h, (aclrtStreamConfigAttr)9, &prio, sizeof prio), ACL_ERROR_INVALID_PARAM,
          "unknown attribute 9");
    FAILS(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, NULL, 4), ACL_ERROR_INVALID_PARAM, "attrValue is NULL");
    FAILS(aclrtCreateStreamV2(&s, NULL), ACL_ERROR_INVALID_PARAM, "handle is NULL");
    OK(aclrtDestroyStreamConfigHandle(h));
    FAILS(aclrtDestroyStreamConfigHandle(NULL), ACL_ERROR_INVALID_PARAM, "handle is NULL");
    down();
}
END_TEST

/* securec.h compiles as C (host samples include it from C and C++) and keeps libboundscheck's codes. */
START_TEST(test_acl_rt2_securec_from_c)
{
    char d[8] = "abcdefg", s[8] = "1234567";
    ck_assert_int_eq(memcpy_s(d, sizeof d, s, 4), EOK);
    ck_assert(!memcmp(d, "1234efg", 8));
    ck_assert_int_eq(memcpy_s(d, 4, s, 8), ERANGE_AND_RESET);
    ck_assert(!memcmp(d, "\0\0\0\0efg", 8));
    char *volatile inside = d + 2; /* hidden from gcc's -Wrestrict, which cannot see the overlap check */
    ck_assert_int_eq(memcpy_s(d, sizeof d, inside, 4), EOVERLAP_AND_RESET);
    ck_assert_int_eq(memset_s(d, sizeof d, 'x', 3), EOK);
    ck_assert_int_eq(d[2], 'x');
    ck_assert_int_eq(memmove_s(d, sizeof d, d + 1, 4), EOK);
    ck_assert_int_eq(memset_s(NULL, 4, 0, 1), EINVAL);
}
END_TEST

Suite *dv_acl_rt2_suite(void)
{
    Suite *s = suite_create("acl_rt2");
    TCase *t = tcase_create("rt2");
    tcase_add_test(t, test_acl_rt2_stream_state_callback);
    tcase_add_test(t, test_acl_rt2_exception_callback);
    tcase_add_test(t, test_acl_rt2_capture_thread_mode);
    tcase_add_test(t, test_acl_rt2_stream_config_handle);
    tcase_add_test(t, test_acl_rt2_overflow_mode);
    tcase_add_test(t, test_acl_rt2_cann_attributes);
    tcase_add_test(t, test_acl_rt2_arch_compatibility);
    tcase_add_test(t, test_acl_rt2_securec_from_c);
    suite_add_tcase(s, t);
    return s;
}
