/* tests/check_acl.c - the AscendCL shim's runtime: init / finalize states, devices, simulated HBM,
 * copies, streams, events, custom kernels and traces, profiling (aclInit's JSON: check_acl_config.c).  Every bad call is
 * checked for its CANN error code and its aclGetRecentErrMsg message.  Times are derived from the
 * profile: a copy takes host.copy_start_cycles + bytes / host.link_bytes_per_cycle. */
#define _DEFAULT_SOURCE
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "acl/acl_prof.h"
#include "acl/acl_rt_allocator.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_add.h"
#include "dv/intmath.h"
#include "dv/kapi.h"
#include "dv/sim.h"
#include "dvsim/acl_launch.h"
#include "support/aclt.h"
#include "support/dvt.h"

static dv_config_t profile(void)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    return cfg;
}

/* ---------------------------------------------------------------- states */

START_TEST(test_acl_init_states)
{
    void *p;
    FAILS(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE, "aclInit");
    FAILS(aclFinalize(), ACL_ERROR_UNINITIALIZE, "never called");
    OK(aclInit(NULL));
    FAILS(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE, "already initialized");
    FAILS(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL, "aclrtSetDevice");
    FAILS(aclrtSetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID, "device 1");
    OK(aclrtSetDevice(0));
    int32_t dev = -1;
    uint32_t count = 0;
    OK(aclrtGetDevice(&dev));
    OK(aclrtGetDeviceCount(&count));
    ck_assert_int_eq(dev, 0);
    ck_assert_uint_eq(count, 1);
    ck_assert_str_eq(aclrtGetSocName(), "Ascend910B2");
    int64_t v = 0;
    OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &v));
    ck_assert_int_eq(v, 48);
    OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &v));
    ck_assert_int_eq(v, 24);
    down();
    FAILS(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, "already finalized");
    FAILS(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE, "aclFinalize was called");
    /* and a second life */
    up();
    OK(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    down();
}
END_TEST

/* ---------------------------------------------------------------- memory */

/* A process that never called aclInit is initialised by aclrtSetDevice (Ascend C programs). */
START_TEST(test_acl_set_device_initialises)
{
    OK(aclrtSetDevice(0));
    ck_assert_str_eq(aclrtGetSocName(), "Ascend910B2");
    void *p;
    OK(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    FAILS(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE, "already initialized");
    OK(aclrtResetDevice(0));
    OK(aclFinalize());
    /* once a session has ended, a device needs aclInit again */
    FAILS(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE, "aclFinalize was called");
}
END_TEST

/* aclrtGetLastError: the code of the thread's last failure, forgotten once read; Peek keeps it. */
START_TEST(test_acl_last_error)
{
    OK(aclrtSetDevice(0));
    ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    FAILS(aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM, "count is NULL");
    uint32_t n;
    OK(aclrtGetDeviceCount(&n)); /* a success does not clear it */
    ck_assert_int_eq(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
    ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
    ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    ck_assert_int_eq(aclrtGetLastError((aclrtLastErrLevel)3), ACL_ERROR_INVALID_PARAM);
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "is not ACL_RT_THREAD_LEVEL"));
    OK(aclrtResetDevice(0));
    OK(aclFinalize());
}
END_TEST

/* The profile aclInit would take, without aclInit (the Ascend C host tiling asks before it). */
START_TEST(test_acl_chip_profile_without_init)
{
    dv_config_t c;
    OK(dvsimChipProfile(NULL, &c));
    ck_assert_str_eq(c.chip_name, "ascend910b2");
    setenv("DVSIM_PROFILE", "ascend910b1", 1);
    OK(dvsimChipProfile(NULL, &c));
    unsetenv("DVSIM_PROFILE");
    ck_assert_str_eq(c.chip_name, "ascend910b1");
    OK(dvsimChipProfile("ascend310", &c));
    ck_assert_uint_eq(c.chip_ai_cores, 2);
    FAILS(dvsimChipProfile("ascend999", &c), ACL_ERROR_INVALID_PARAM, "ascend999");
    FAILS(dvsimChipProfile(NULL, NULL), ACL_ERROR_INVALID_PARAM, "NULL");
}
END_TEST

START_TEST(test_acl_memory_capacity_and_info)
{
    dv_config_t cfg = profile();
    void *a, *b, *big;
    size_t free0, total, free1;
    up();
    OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
    ck_assert_uint_eq(total, cfg.hbm_capacity_bytes);
    ck_assert_uint_eq(free0, total);
    OK(aclrtMalloc(&a, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&b, 1, ACL_MEM_MALLOC_NORMAL_ONLY));
    /* DV_GM_ALIGN-aligned, first fit: b follows a's 1024-byte span */
    ck_assert_uint_eq((uintptr_t)a % DV_GM_ALIGN, 0);
    ck_assert_uint_eq((uintptr_t)b - (uintptr_t)a, 1024);
    OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
    ck_assert_uint_eq(free0 - free1, 1024 + 512);
    FAILS(aclrtMalloc(&big, (size_t)cfg.hbm_capacity_bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION,
          "hbm.capacity_bytes");
    ck_assert_ptr_null(big);
    FAILS(aclrtMalloc(&big, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM, "size is 0");
    FAILS(aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
    OK(aclrtFree(a));
    /* the freed range is reused first */
    OK(aclrtMalloc(&big, 512, ACL_MEM_MALLOC_HUGE_FIRST));
    ck_assert_ptr_eq(big, a);
    /* first fit over many: after a run of allocations end to end (which the search skips), a gap
     * freed anywhere is found again, one too small is passed over */
    void *p[64], *q;
    for (int i = 0; i < 64; i++)
        OK(aclrtMalloc(&p[i], 512, ACL_MEM_MALLOC_HUGE_FIRST));
    ck_assert_uint_eq((uintptr_t)p[0], (uintptr_t)big + 512); /* the rest of a's span */
    ck_assert_uint_eq((uintptr_t)p[63] - (uintptr_t)p[1], 62 * 512);
    OK(aclrtFree(p[40]));
    OK(aclrtFree(p[41]));
    OK(aclrtFree(p[10]));
    OK(aclrtMalloc(&q, 1024, ACL_MEM_MALLOC_HUGE_FIRST)); /* p[10]'s 512 bytes are too few */
    ck_assert_ptr_eq(q, p[40]);
    OK(aclrtMalloc(&q, 512, ACL_MEM_MALLOC_HUGE_FIRST));
    ck_assert_ptr_eq(q, p[10]);
    OK(aclrtMalloc(&q, 512, ACL_MEM_MALLOC_HUGE_FIRST)); /* no gap left: after the last */
    ck_assert_uint_eq((uintptr_t)q, (uintptr_t)p[63] + 512);
    down();
}
END_TEST

START_TEST(test_acl_memory_bad_frees_and_copies)
{
    void *a, *b;
    uint8_t host[4096], back[4096];
    up();
    OK(aclrtMalloc(&a, 1024, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&b, 1024, ACL_MEM_MALLOC_HUGE_FIRST));
    memset(host, 0x11, sizeof host);
    OK(aclrtMemcpy(b, 1024, host, 1024, ACL_MEMCPY_HOST_TO_DEVICE));
    memset(host, 0x22, sizeof host);
    /* past the end of a, into b's range: refused, b intact */
    FAILS(aclrtMemcpy(a, 4096, host, 2048, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
          "runs past the end of its allocation (1024 bytes left there)");
    FAILS(aclrtMemcpy(a, 16, host, 32, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM, "larger than destMax");
    FAILS(aclrtMemcpy(host, 64, a, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
          "is a host address but the copy kind says device");
    FAILS(aclrtMemcpy(a, 64, b, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
          "is a device address but the copy kind says host");
    FAILS(aclrtMemcpy(NULL, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM, "dst is NULL");
    FAILS(aclrtMemcpy(a, 64, host, 64, (aclrtMemcpyKind)9), ACL_ERROR_INVALID_PARAM, "copy kind 9");
    FAILS(aclrtMemset((char *)a + 1000, 64, 0, 64), ACL_ERROR_INVALID_PARAM, "past the end");
    OK(aclrtMemcpy(back, 1024, b, 1024, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < 1024; i++)
        ck_assert_uint_eq(back[i], 0x11);
    /* frees */
    FAILS(aclrtFree((char *)a + 64), ACL_ERROR_INVALID_PARAM, "inside an allocation");
    FAILS(aclrtFree((void *)(uintptr_t)0x5000), ACL_ERROR_INVALID_PARAM, "not a live device allocation");
    FAILS(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM, "NULL");
    OK(aclrtFree(a));
    FAILS(aclrtFree(a), ACL_ERROR_INVALID_PARAM, "freed already");
    FAILS(aclrtMemcpy(a, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
          "not inside a device allocation");
    /* host memory */
    void *h;
    OK(aclrtMallocHost(&h, 256));
    OK(aclrtFreeHost(h));
    FAILS(aclrtFreeHost(h), ACL_ERROR_INVALID_PARAM, "aclrtMallocHost");
    FAILS(aclrtFreeHost(host), ACL_ERROR_INVALID_PARAM, "aclrtMallocHost");
    OK(aclrtMemcpy(back, 1024, b, 1024, ACL_MEMCPY_DEVICE_TO_HOST));
    ck_assert_uint_eq(back[1023], 0x11);
    down();
}
END_TEST

/* D2D, memset, 2-D copies and the default kind move the right bytes. */
START_TEST(test_acl_memory_copy_kinds)
{
    void *a, *b;
    uint8_t src[256], dst[256];
    up();
    OK(aclrtMalloc(&a, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&b, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    for (int i = 0; i < 256; i++)
        src[i] = (uint8_t)i;
    OK(aclrtMemcpy(a, 256, src, 256, ACL_MEMCPY_DEFAULT));
    OK(aclrtMemset(b, 256, 0x7F, 256));
    OK(aclrtMemcpy((char *)b + 16, 240, (char *)a + 32, 8, ACL_MEMCPY_DEVICE_TO_DEVICE));
    OK(aclrtMemcpy(dst, 256, b, 256, ACL_MEMCPY_DEFAULT));
    for (int i = 0; i < 256; i++)
        ck_assert_uint_eq(dst[i], i >= 16 && i < 24 ? (unsigned)(i + 16) : 0x7Fu);
    /* 4 rows of 8 bytes from a pitch-16 host array into a pitch-32 device range */
    OK(aclrtMemcpy2d(b, 32, src, 16, 8, 4, ACL_MEMCPY_HOST_TO_DEVICE));
    OK(aclrtMemcpy(dst, 256, b, 256, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 8; c++)
            ck_assert_uint_eq(dst[r * 32 + c], (unsigned)(r * 16 + c));
    FAILS(aclrtMemcpy2d(b, 32, src, 16, 8, 9, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
          "not inside a device allocation");
    ck_assert_uint_eq(dst[0], 0); /* nothing of the refused copy landed */
    FAILS(aclrtMemcpy2d(b, 4, src, 16, 8, 2, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM, "width 8");
    down();
}
END_TEST

/* ---------------------------------------------------------------- streams and events */

/* An async host-to-device copy between two events: exactly start + bytes / link cycles. */
START_TEST(test_acl_event_times_copy)
{
    dv_config_t cfg = profile();
    const size_t bytes = 1u << 20;
    void *d, *h;
    aclrtStream s;
    aclrtEvent e0, e1, e2;
    float ms = -1;
    up();
    OK(aclrtCreateStream(&s));
    OK(aclrtMalloc(&d, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMallocHost(&h, bytes));
    OK(aclrtCreateEvent(&e0));
    OK(aclrtCreateEvent(&e1));
    OK(aclrtCreateEvent(&e2));
    FAILS(aclrtEventElapsedTime(&ms, e0, e1), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, "never recorded");
    OK(aclrtRecordEvent(e0, s));
    OK(aclrtMemcpyAsync(d, bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE, s));
    OK(aclrtRecordEvent(e1, s));
    FAILS(aclrtEventElapsedTime(&ms, e0, e1), ACL_ERROR_RT_EVENT_NOT_COMPLETE, "has not run yet");
    /* a query lets the device run one task: "not ready" until the copy and the record have run */
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    int polls = 0;
    do {
        OK(aclrtQueryEventStatus(e1, &st));
        polls++;
    } while (st != ACL_EVENT_RECORDED_STATUS_COMPLETE && polls < 10);
    ck_assert_int_eq(polls, 3); /* record e0, the copy, record e1 */
    OK(aclrtEventElapsedTime(&ms, e0, e1));
    uint64_t cycles = cfg.host_copy_start_cycles + dv_ceil_div(bytes, cfg.host_link_bytes_per_cycle);
    ck_assert_float_eq(ms, (float)((double)cycles / (double)cfg.chip_freq_mhz / 1000.0));
    /* device-to-device: read and write through the sustained HBM rate (hbm.bytes_per_cycle x efficiency) */
    OK(aclrtMemcpyAsync((char *)d + bytes / 2, bytes / 2, d, bytes / 2, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    OK(aclrtRecordEvent(e2, s));
    OK(aclrtSynchronizeStream(s));
    OK(aclrtEventElapsedTime(&ms, e1, e2));
    cycles = cfg.host_copy_start_cycles + (bytes + dv_hbm_sustained_bytes_per_cycle(&cfg) - 1) / dv_hbm_sustained_bytes_per_cycle(&cfg);
    ck_assert_float_eq(ms, (float)((double)cycles / (double)cfg.chip_freq_mhz / 1000.0));
    FAILS(aclrtEventElapsedTime(&ms, e2, e1), ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL, "before the start event");
    OK(aclrtDestroyEvent(e0));
    FAILS(aclrtRecordEvent(e0, s), ACL_ERROR_INVALID_PARAM, "not a live event");
    OK(aclrtDestroyStream(s));
    FAILS(aclrtSynchronizeStream(s), ACL_ERROR_INVALID_PARAM, "not a live stream");
    down();
}
END_TEST

/* Two streams: copies on different engines overlap; a wait on an event holds the other stream
 * until the record has run; callbacks run in stream order. */
static int g_calls[4], g_ncalls;
static void note_call(void *p)
{
    g_calls[g_ncalls++] = (int)(intptr_t)p;
}

START_TEST(test_acl_streams_overlap_and_wait)
{
    dv_config_t cfg = profile();
    const size_t bytes = 1u << 18;
    void *d1, *d2, *h;
    aclrtStream s1, s2;
    aclrtEvent a0, a1, done;
    float ms;
    up();
    OK(aclrtCreateStream(&s1));
    OK(aclrtCreateStream(&s2));
    OK(aclrtMalloc(&d1, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&d2, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMallocHost(&h, bytes));
    OK(aclrtCreateEvent(&a0));
    OK(aclrtCreateEvent(&a1));
    OK(aclrtCreateEvent(&done));
    uint64_t copy = cfg.host_copy_start_cycles + dv_ceil_div(bytes, cfg.host_link_bytes_per_cycle);
    double unit = (double)copy / (double)cfg.chip_freq_mhz / 1000.0;
    /* s1: H2D; s2: D2H of another buffer (other engine) then waits for s1's H2D, then a callback */
    OK(aclrtRecordEvent(a0, s1));
    OK(aclrtMemcpyAsync(d1, bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE, s1));
    OK(aclrtRecordEvent(done, s1));
    OK(aclrtLaunchCallback(note_call, (void *)1, ACL_CALLBACK_BLOCK, s1));
    OK(aclrtMemcpyAsync(h, bytes, d2, bytes, ACL_MEMCPY_DEVICE_TO_HOST, s2));
    OK(aclrtStreamWaitEvent(s2, done));
    OK(aclrtMemcpyAsync(h, bytes, d2, bytes, ACL_MEMCPY_DEVICE_TO_HOST, s2));
    OK(aclrtRecordEvent(a1, s2));
    OK(aclrtLaunchCallback(note_call, (void *)2, ACL_CALLBACK_BLOCK, s2));
    ck_assert_int_eq(g_ncalls, 0); /* nothing runs before a synchronisation */
    OK(aclrtSynchronizeDevice());
    ck_assert_int_eq(g_ncalls, 2);
    ck_assert_int_eq(g_calls[0], 1);
    ck_assert_int_eq(g_calls[1], 2);
    /* the first D2H overlaps the H2D; the second starts when the H2D is done: 2 copies in all */
    OK(aclrtEventElapsedTime(&ms, a0, a1));
    ck_assert_float_eq(ms, (float)(2 * unit));
    OK(aclrtEventElapsedTime(&ms, a0, done));
    ck_assert_float_eq(ms, (float)unit);
    down();
}
END_TEST

/* A host callback may call the API, but not what would free the work the streams are running: its
 * own stream (or another), the device, the session.  Those are refused and the run goes on (was: a
 * use after free of the stream the callback ran on). */
static aclrtStream g_cb_stream;
static int g_cb_rc[5];
static void destroying_call(void *p)
{
    (void)p;
    g_cb_rc[0] = aclrtDestroyStream(g_cb_stream);
    g_cb_rc[1] = aclrtDestroyStreamForce(g_cb_stream);
    g_cb_rc[2] = aclrtResetDevice(0);
    g_cb_rc[3] = aclFinalize();
    g_cb_rc[4] = aclrtSynchronizeDevice(); /* allowed: the outer drain goes on */
}

START_TEST(test_acl_callback_cannot_free_running_work)
{
    void *d, *h;
    up();
    OK(aclrtCreateStream(&g_cb_stream));
    OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMallocHost(&h, 4096));
    memset(h, 0x5a, 4096);
    OK(aclrtLaunchCallback(destroying_call, NULL, ACL_CALLBACK_BLOCK, g_cb_stream));
    OK(aclrtMemcpyAsync(d, 4096, h, 4096, ACL_MEMCPY_HOST_TO_DEVICE, g_cb_stream)); /* after the callback */
    OK(aclrtSynchronizeStream(g_cb_stream));
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(g_cb_rc[i], ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ck_assert_int_eq(g_cb_rc[4], ACL_SUCCESS);
    uint8_t back[4096];
    OK(aclrtMemcpy(back, 4096, d, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
    ck_assert_int_eq(back[4095], 0x5a);
    OK(aclrtDestroyStream(g_cb_stream)); /* outside the callback: allowed */
    down();
}
END_TEST

/* aclrtFree runs the queued work before it frees (the work may use the memory); a host callback of
 * that work freeing the same pointer makes the outer free a double free, refused with a message (was:
 * the allocation table read at index -1: the AscendCL call-sequence fuzzer, ASan). */
static void *g_cb_ptr;
static int g_cb_free_rc = -1;
static void freeing_call(void *p)
{
    (void)p;
    g_cb_free_rc = aclrtFree(g_cb_ptr);
}

START_TEST(test_acl_callback_frees_what_the_caller_frees)
{
    void *other;
    up();
    OK(aclrtMalloc(&other, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&g_cb_ptr, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtLaunchCallback(freeing_call, NULL, ACL_CALLBACK_BLOCK, NULL));
    FAILS(aclrtFree(g_cb_ptr), ACL_ERROR_INVALID_PARAM, "was freed by a host callback while the queued work ran");
    ck_assert_int_eq(g_cb_free_rc, ACL_SUCCESS);
    FAILS(aclrtFree(g_cb_ptr), ACL_ERROR_INVALID_PARAM, "not a live device allocation");
    OK(aclrtFree(other)); /* the neighbour is intact */
    down();
}
END_TEST

/* A wait on an event whose record was dropped with its stream's queue (aclrtStreamStop) can never
 * complete: the synchronising call says so (ACL_ERROR_RT_EVENT_NOT_COMPLETE, the stream named), the
 * wait fails as a task, and the stream's later work runs (continue on failure, the default).  Was: an
 * internal error ("every stream waits on an event") from every later synchronising call, the synchronous
 * copies' included: the AscendCL call-sequence fuzzer. */
START_TEST(test_acl_wait_on_discarded_record)
{
    aclrtStream a, b;
    aclrtEvent e;
    void *d;
    uint8_t h[256], back[256];
    memset(h, 0x3c, sizeof h);
    up();
    OK(aclrtCreateStream(&a));
    OK(aclrtCreateStream(&b));
    OK(aclrtCreateEvent(&e));
    OK(aclrtMalloc(&d, sizeof h, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMemcpyAsync(d, sizeof h, h, sizeof h, ACL_MEMCPY_HOST_TO_DEVICE, a));
    OK(aclrtRecordEvent(e, a));
    OK(aclrtStreamWaitEvent(b, e));
    OK(aclrtMemcpyAsync(back, sizeof back, d, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST, b));
    OK(aclrtStreamStop(a)); /* the copy in and the record are dropped */
    FAILS(aclrtSynchronizeStream(b), ACL_ERROR_RT_EVENT_NOT_COMPLETE, "an event record that will never run");
    OK(aclrtSynchronizeStream(b)); /* reported once */
    OK(aclrtMemcpy(h, sizeof h, back, sizeof back, ACL_MEMCPY_HOST_TO_HOST));
    OK(aclrtDestroyEvent(e));
    OK(aclrtDestroyStream(a));
    OK(aclrtDestroyStream(b));
    OK(aclrtFree(d));
    down();
}
END_TEST

/* ---------------------------------------------------------------- CANN's runtime behaviour */

/* Queries CANN answers before aclInit: the SoC (from the profile the environment chooses), the run
 * mode, the interface and package versions (were: NULL and ACL_ERROR_UNINITIALIZE). */
START_TEST(test_acl_queries_before_init)
{
    const char *soc = aclrtGetSocName();
    ck_assert_ptr_nonnull(soc);
    ck_assert_str_eq(soc, "Ascend910B2");
    setenv("DVSIM_PROFILE", "ascend310", 1);
    ck_assert_str_eq(aclrtGetSocName(), "Ascend310");
    setenv("DVSIM_PROFILE", "ascend999", 1);
    ck_assert_ptr_null(aclrtGetSocName());
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "ascend999"));
    unsetenv("DVSIM_PROFILE");
    aclrtRunMode mode = ACL_DEVICE;
    OK(aclrtGetRunMode(&mode));
    ck_assert_int_eq(mode, ACL_HOST);
    int32_t ma = 0, mi = 0, pa = -1;
    OK(aclrtGetVersion(&ma, &mi, &pa));
    ck_assert_int_eq(ma, ACL_MAJOR_VERSION);
    char pkg[] = "runtime", bad[] = "driver", ver[ACL_PKG_VERSION_MAX_SIZE] = {0};
    int32_t num = 0;
    OK(aclsysGetVersionStr(pkg, ver));
    ck_assert_str_eq(ver, "8.3.0");
    OK(aclsysGetVersionNum(pkg, &num));
    ck_assert_int_eq(num, 8030000);
    FAILS(aclsysGetVersionStr(bad, ver), ACL_ERROR_INVALID_PARAM, "package 'driver' is not installed");
    FAILS(aclsysGetVersionNum(pkg, NULL), ACL_ERROR_INVALID_PARAM, "versionNum is NULL");
    up(); /* and the session's after aclInit */
    ck_assert_str_eq(aclrtGetSocName(), "Ascend910B2");
    down();
}
END_TEST

/* aclrtMemset decides host or device from the address: aclrtMallocHost memory is filled on the host
 * (was: "is a host address but the copy kind says device"); other host memory is refused. */
START_TEST(test_acl_memset_host_memory)
{
    uint8_t *h;
    uint8_t stack[64];
    aclrtStream s;
    up();
    OK(aclrtCreateStream(&s));
    OK(aclrtMallocHost((void **)&h, 256));
    memset(h, 0, 256);
    OK(aclrtMemset(h, 256, 0x1A5, 128));
    ck_assert_uint_eq(h[0], 0xA5);
    ck_assert_uint_eq(h[127], 0xA5);
    ck_assert_uint_eq(h[128], 0);
    OK(aclrtMemsetAsync(h + 128, 128, 0x3C, 128, s));
    OK(aclrtSynchronizeStream(s));
    ck_assert_uint_eq(h[255], 0x3C);
    FAILS(aclrtMemset(h + 200, 100, 0, 100), ACL_ERROR_INVALID_PARAM, "runs past the end of its aclrtMallocHost");
    FAILS(aclrtMemset(stack, 64, 0, 64), ACL_ERROR_INVALID_PARAM, "neither device memory nor inside an aclrtMallocHost");
    OK(aclrtMemsetAsync(h, 256, 0, 256, s));
    OK(aclrtFreeHost(h)); /* freed before the queued memset runs */
    FAILS(aclrtSynchronizeStream(s), ACL_ERROR_INVALID_PARAM, "its aclrtMallocHost memory was freed");
    OK(aclrtDestroyStream(s));
    down();
}
END_TEST

/* Status queries never report completion before the work has run: each lets the device run one
 * task, so a polling loop sees "not ready" and then completes (were: a query synchronised). */
START_TEST(test_acl_queries_report_not_ready)
{
    aclrtStream s;
    aclrtEvent e;
    void *d;
    static uint8_t h[4096], back[4096];
    memset(h, 0x6b, sizeof h);
    up();
    OK(aclrtCreateStream(&s));
    OK(aclrtCreateEvent(&e));
    OK(aclrtMalloc(&d, sizeof h, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtStreamStatus ss = ACL_STREAM_STATUS_NOT_READY;
    OK(aclrtStreamQuery(s, &ss));
    ck_assert_int_eq(ss, ACL_STREAM_STATUS_COMPLETE); /* nothing queued */
    OK(aclrtMemcpyAsync(d, sizeof h, h, sizeof h, ACL_MEMCPY_HOST_TO_DEVICE, s));
    OK(aclrtMemcpyAsync(back, sizeof back, d, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST, s));
    OK(aclrtRecordEvent(e, s));
    aclrtEventStatus es = ACL_EVENT_STATUS_COMPLETE;
    OK(aclrtQueryEvent(e, &es));
    ck_assert_int_eq(es, ACL_EVENT_STATUS_NOT_READY);
    ck_assert_uint_eq(back[0], 0); /* the copy back has not run */
    OK(aclrtStreamQuery(s, &ss));
    ck_assert_int_eq(ss, ACL_STREAM_STATUS_NOT_READY);
    ck_assert_uint_eq(back[0], 0x6b); /* now it has */
    OK(aclrtStreamQuery(s, &ss)); /* the record */
    ck_assert_int_eq(ss, ACL_STREAM_STATUS_COMPLETE);
    OK(aclrtQueryEvent(e, &es));
    ck_assert_int_eq(es, ACL_EVENT_STATUS_COMPLETE);
    FAILS(aclrtRecordEventWithFlag(e, s, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
          "only ACL_EVENT_RECORD_DEFAULT is simulated");
    FAILS(aclrtStreamWaitEventWithFlag(s, e, 0, 7), ACL_ERROR_INVALID_PARAM, "only ACL_EVENT_WAIT_DEFAULT is simulated");
    OK(aclrtRecordEventWithFlag(e, s, ACL_EVENT_RECORD_DEFAULT));
    OK(aclrtStreamWaitEventWithFlag(NULL, e, 0, ACL_EVENT_WAIT_DEFAULT));
    OK(aclrtSynchronizeDevice());
    aclrtEvent never;
    aclrtEventRecordedStatus rs = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    OK(aclrtCreateEvent(&never));
    OK(aclrtQueryEventStatus(never, &rs));
    ck_assert_int_eq(rs, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    OK(aclrtDestroyEvent(never));
    OK(aclrtDestroyEvent(e));
    OK(aclrtDestroyStream(s));
    OK(aclrtFree(d));
    down();
}
END_TEST

/* aclrtDestroyStreamForce does not wait, but what was submitted still runs on the device (was:
 * thrown away, so the runtime memory samples' last kernel never ran); the handle dies at once. */
START_TEST(test_acl_force_destroy_runs_submitted_work)
{
    aclrtStream s;
    void *d;
    static uint8_t h[1024], back[1024];
    memset(h, 0x47, sizeof h);
    up();
    OK(aclrtCreateStream(&s));
    OK(aclrtMalloc(&d, sizeof h, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMemcpyAsync(d, sizeof h, h, sizeof h, ACL_MEMCPY_HOST_TO_DEVICE, s));
    OK(aclrtMemcpyAsync(back, sizeof back, d, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST, s));
    OK(aclrtDestroyStreamForce(s));
    ck_assert_uint_eq(back[0], 0); /* not waited for */
    FAILS(aclrtSynchronizeStream(s), ACL_ERROR_INVALID_PARAM, "not a live stream");
    OK(aclrtSynchronizeDevice());
    ck_assert_uint_eq(back[1023], 0x47);
    OK(aclrtFree(d));
    down();
}
END_TEST

/* Notifies: a wait holds its stream until a record has run, and clears the notify. */
START_TEST(test_acl_notify)
{
    aclrtStream a, b;
    aclrtNotify n;
    void *d;
    static uint8_t h[512], back[512];
    uint32_t id = 99;
    memset(h, 0x2e, sizeof h);
    up();
    OK(aclrtCreateStream(&a));
    OK(aclrtCreateStream(&b));
    OK(aclrtMalloc(&d, sizeof h, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtCreateNotify(&n, 0));
    OK(aclrtGetNotifyId(n, &id));
    ck_assert_uint_ne(id, 99);
    FAILS(aclrtCreateNotify(&n, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "flag 0x1 is not simulated");
    /* b waits for a's copy in before copying back */
    OK(aclrtWaitAndResetNotify(n, b, 0));
    OK(aclrtMemcpyAsync(back, sizeof back, d, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST, b));
    OK(aclrtMemcpyAsync(d, sizeof h, h, sizeof h, ACL_MEMCPY_HOST_TO_DEVICE, a));
    OK(aclrtRecordNotify(n, a));
    OK(aclrtSynchronizeDevice());
    ck_assert_uint_eq(back[511], 0x2e);
    /* the wait cleared it: a second wait without a record can never complete */
    OK(aclrtWaitAndResetNotify(n, b, 0));
    FAILS(aclrtSynchronizeStream(b), ACL_ERROR_RT_EVENT_NOT_COMPLETE, "on a notify that no queued task records");
    /* events and notifies are handles of their own kind */
    aclrtEvent ev;
    OK(aclrtCreateEvent(&ev));
    FAILS(aclrtRecordNotify((aclrtNotify)ev, a), ACL_ERROR_INVALID_PARAM, "not a live notify");
    FAILS(aclrtDestroyNotify((aclrtNotify)ev), ACL_ERROR_INVALID_PARAM, "not a live notify");
    FAILS(aclrtRecordEvent((aclrtEvent)n, a), ACL_ERROR_INVALID_PARAM, "not a live event");
    FAILS(aclrtDestroyEvent((aclrtEvent)n), ACL_ERROR_INVALID_PARAM, "not a live event");
    OK(aclrtDestroyEvent(ev));
    OK(aclrtDestroyNotify(n));
    FAILS(aclrtRecordNotify(n, a), ACL_ERROR_INVALID_PARAM, "not a live notify");
    OK(aclrtDestroyStream(a));
    OK(aclrtDestroyStream(b));
    OK(aclrtFree(d));
    down();
}
END_TEST

/* Host functions and report subscriptions; stream queries; stream stop. */
static int g_hostfn_calls;
static void hostfn(void *p) { g_hostfn_calls += *(int *)p; }

START_TEST(test_acl_hostfunc_reports_and_stream_queries)
{
    aclrtStream s, dflt = NULL;
    int inc = 5;
    up();
    OK(aclrtCreateStreamWithConfig(&s, 3, ACL_STREAM_FAST_LAUNCH));
    uint32_t prio = 0, flags = 0;
    int32_t id = -1, least = -1, greatest = -1;
    OK(aclrtStreamGetPriority(s, &prio));
    OK(aclrtStreamGetFlags(s, &flags));
    OK(aclrtStreamGetId(s, &id));
    ck_assert_uint_eq(prio, 3);
    ck_assert_uint_eq(flags, ACL_STREAM_FAST_LAUNCH);
    ck_assert_int_gt(id, 0);
    OK(aclrtStreamGetId(NULL, &id));
    ck_assert_int_eq(id, 0);
    OK(aclrtDeviceGetStreamPriorityRange(&least, &greatest));
    ck_assert_int_eq(least, 7);
    ck_assert_int_eq(greatest, 0);
    OK(aclrtCtxGetCurrentDefaultStream(&dflt));
    ck_assert_ptr_nonnull(dflt);
    FAILS(aclrtStreamGetFlags(s, NULL), ACL_ERROR_INVALID_PARAM, "flags is NULL");
    /* a host function runs when the stream reaches it */
    g_hostfn_calls = 0;
    OK(aclrtLaunchHostFunc(s, hostfn, &inc));
    ck_assert_int_eq(g_hostfn_calls, 0);
    FAILS(aclrtProcessReport(100), ACL_ERROR_THREAD_NOT_SUBSCRIBE, "no thread is subscribed");
    OK(aclrtSubscribeReport(7, s));
    FAILS(aclrtSubscribeReport(7, s), ACL_ERROR_REPEAT_SUBSCRIBE, "already handles");
    OK(aclrtProcessReport(100));
    ck_assert_int_eq(g_hostfn_calls, 5);
    FAILS(aclrtProcessReport(100), ACL_ERROR_RT_REPORT_TIMEOUT, "nothing is queued");
    OK(aclrtUnSubscribeReport(7, s));
    FAILS(aclrtUnSubscribeReport(7, s), ACL_ERROR_STREAM_NOT_SUBSCRIBE, "does not handle");
    OK(aclrtSubscribeHostFunc(8, s));
    FAILS(aclrtProcessHostFunc(-2), ACL_ERROR_INVALID_PARAM, "timeout -2");
    OK(aclrtUnSubscribeHostFunc(8, s));
    FAILS(aclrtLaunchHostFunc(s, NULL, NULL), ACL_ERROR_INVALID_PARAM, "fn is NULL");
    /* a stopped stream drops what it has not run */
    OK(aclrtLaunchHostFunc(s, hostfn, &inc));
    OK(aclrtStreamAbort(s));
    OK(aclrtSynchronizeStream(s));
    ck_assert_int_eq(g_hostfn_calls, 5);
    FAILS(aclrtStreamStop(NULL), ACL_ERROR_INVALID_PARAM, "stream is NULL");
    OK(aclrtDestroyStream(s));
    down();
}
END_TEST

/* Peer access on one device, capabilities and limits, and the families that are not simulated:
 * each a code and a message naming the call, never a link error. */
START_TEST(test_acl_runtime_families)
{
    int32_t can = -1, v = -1;
    uint32_t n = 0;
    up();
    OK(aclrtDeviceCanAccessPeer(&can, 0, 0));
    ck_assert_int_eq(can, 0);
    FAILS(aclrtDeviceCanAccessPeer(&can, 0, 1), ACL_ERROR_RT_INVALID_DEVICEID, "device 1 does not exist");
    FAILS(aclrtDeviceEnablePeerAccess(1, 0), ACL_ERROR_RT_INVALID_DEVICEID, "which has no peer");
    FAILS(aclrtDeviceDisablePeerAccess(1), ACL_ERROR_RT_INVALID_DEVICEID, "which has no peer");
    OK(aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &v));
    ck_assert_int_eq(v, 0);
    OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &n));
    ck_assert_uint_eq(n, 24);
    OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &n));
    ck_assert_uint_eq(n, 48);
    OK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 48));
    FAILS(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 8), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
          "limiting kernels to 8 of the 24 cores is not simulated");
    FAILS(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 25), ACL_ERROR_INVALID_PARAM, "the profile has 1 .. 24");
    OK(aclrtResetDeviceResLimit(0));
    FAILS(aclrtDeviceCanAccessPeer(NULL, 0, 0), ACL_ERROR_INVALID_PARAM, "canAccessPeer is NULL");
    FAILS(aclrtGetDeviceCapability(0, (aclrtDevFeatureType)5, &v), ACL_ERROR_INVALID_PARAM, "unknown feature");
    FAILS(aclrtGetDeviceResLimit(0, (aclrtDevResLimitType)7, &n), ACL_ERROR_INVALID_PARAM,
          "is not ACL_RT_DEV_RES_CUBE_CORE (0) or ACL_RT_DEV_RES_VECTOR_CORE (1)");
    FAILS(aclrtGetDeviceResLimit(1, ACL_RT_DEV_RES_CUBE_CORE, &n), ACL_ERROR_RT_INVALID_DEVICEID,
          "does not exist (dvsim simulates device 0)");
    aclrtNotify nt;
    FAILS(aclrtCreateNotify(NULL, 0), ACL_ERROR_INVALID_PARAM, "notify is NULL");
    OK(aclrtCreateNotify(&nt, 0));
    FAILS(aclrtGetNotifyId(nt, NULL), ACL_ERROR_INVALID_PARAM, "notifyId is NULL");
    OK(aclrtDestroyNotify(nt));
    int32_t g = 0;
    FAILS(aclrtDeviceGetStreamPriorityRange(NULL, &g), ACL_ERROR_INVALID_PARAM, "leastPriority is NULL");
    char pkg[] = "runtime";
    FAILS(aclsysGetVersionStr(pkg, NULL), ACL_ERROR_INVALID_PARAM, "versionStr is NULL");
    FAILS(aclsysGetVersionStr(NULL, NULL), ACL_ERROR_INVALID_PARAM, "pkgName is NULL");
    OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &n));
    ck_assert_uint_eq(n, 24);
    aclrtDeviceStatus ds = ACL_RT_DEVICE_STATUS_ABNORMAL;
    OK(aclrtQueryDeviceStatus(0, &ds));
    ck_assert_int_eq(ds, ACL_RT_DEVICE_STATUS_NORMAL);
    aclrtEvent ipc;
    FAILS(aclrtCreateEventExWithFlag(&ipc, ACL_EVENT_IPC), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "ACL_EVENT_IPC");
    void *va = NULL;
    aclrtDrvMemHandle ph = NULL;
    FAILS(aclrtReserveMemAddress(&va, 1 << 21, 0, NULL, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtReserveMemAddress");
    FAILS(aclrtMallocPhysical(&ph, 1 << 21, NULL, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtMallocPhysical");
    FAILS(aclrtMapMem(va, 1 << 21, 0, ph, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtMapMem");
    FAILS(aclrtIpcMemClose("k"), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtIpcMemClose");
    FAILS(aclrtMemAllocManaged(&va, 64, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
          "unified memory and host registration are not simulated");
    FAILS(aclrtValueWait(va, 1, ACL_STREAM_WAIT_VALUE_EQ, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "use an event or a notify");
    FAILS(aclrtReduceAsync(va, va, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, NULL, NULL),
          ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "does not reduce");
    aclrtUtilizationInfo ui;
    FAILS(aclrtGetDeviceUtilizationRate(0, &ui), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "no live utilisation");
    aclrtIpcEventHandle eh;
    memset(&eh, 0, sizeof eh);
    aclrtEvent ev = NULL;
    FAILS(aclrtIpcOpenEventHandle(eh, &ev), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "between processes");
    /* dump: a session with dump off */
    OK(aclmdlInitDump());
    FAILS(aclmdlInitDump(), ACL_ERROR_DUMP_ALREADY_RUN, "a dump session is open");
    FAILS(aclmdlSetDump("dump.json"), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclmdlSetDump: not supported");
    FAILS(aclmdlSetDump(NULL), ACL_ERROR_INVALID_PARAM, "dumpCfgPath is NULL");
    OK(aclmdlFinalizeDump());
    FAILS(aclmdlFinalizeDump(), ACL_ERROR_DUMP_NOT_RUN, "no dump session");
    ck_assert_ptr_null(acldumpGetPath(DATA_DUMP));
    FAILS(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, "."), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclopStartDumpArgs");
    /* profiling settings */
    OK(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "15", 2));
    FAILS(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "15", 5), ACL_ERROR_INVALID_PARAM, "configLength (5)");
    FAILS(aclprofSetConfig((aclprofConfigType)99, "1", 1), ACL_ERROR_INVALID_PARAM, "config type 99");
    down();
}
END_TEST

/* A user allocator registered for a stream is kept and reported back. */
static void *fake_alloc(aclrtAllocator a, size_t n) { (void)a, (void)n; return NULL; }
static void fake_free(aclrtAllocator a, aclrtAllocatorBlock b) { (void)a, (void)b; }
static void *fake_addr(aclrtAllocatorBlock b) { return b; }

START_TEST(test_acl_allocator_registration)
{
    aclrtStream s;
    int obj = 0;
    up();
    OK(aclrtCreateStream(&s));
    aclrtAllocatorDesc d = aclrtAllocatorCreateDesc();
    ck_assert_ptr_nonnull(d);
    FAILS(aclrtAllocatorRegister(s, d), ACL_ERROR_INVALID_PARAM, "needs its allocator object");
    OK(aclrtAllocatorSetObjToDesc(d, &obj));
    OK(aclrtAllocatorSetAllocFuncToDesc(d, fake_alloc));
    OK(aclrtAllocatorSetFreeFuncToDesc(d, fake_free));
    OK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, fake_addr));
    OK(aclrtAllocatorRegister(s, d));
    aclrtAllocator got = NULL;
    aclrtAllocatorAllocFunc af = NULL;
    OK(aclrtAllocatorGetByStream(s, NULL, &got, &af, NULL, NULL, NULL));
    ck_assert_ptr_eq(got, &obj);
    ck_assert_ptr_eq((void *)af, (void *)fake_alloc);
    OK(aclrtAllocatorUnregister(s));
    FAILS(aclrtAllocatorGetByStream(s, NULL, &got, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM, "no allocator");
    OK(aclrtAllocatorDestroyDesc(d));
    FAILS(aclrtAllocatorDestroyDesc(d), ACL_ERROR_INVALID_PARAM, "not a live allocator descriptor");
    OK(aclrtDestroyStream(s));
    down();
}
END_TEST

/* ---------------------------------------------------------------- custom kernels and traces */

typedef struct scale_params {
    uint32_t elems; /* fp32 elements per block, a multiple of 64 */
} scale_params_t;

/* y = relu(x), one copy in and out per block. */
static void relu_kernel(dv_k_t *k, const void *p)
{
    const scale_params_t *prm = p;
    uint64_t off = (uint64_t)dvk_block_idx(k) * prm->elems * 4;
    uint64_t buf = dvk_alloc(k, DV_SPACE_UB, prm->elems * 4);
    int ev = dvk_event_alloc(k, DV_PIPE_MTE2, DV_PIPE_V), ev2 = dvk_event_alloc(k, DV_PIPE_V, DV_PIPE_MTE3);
    dvk_copy_gm_to_ubuf(k, buf, dvk_gm(k, 0, off), 1, prm->elems * 4 / 32, 0, 0);
    dvk_set_flag(k, DV_PIPE_MTE2, DV_PIPE_V, ev);
    dvk_wait_flag(k, DV_PIPE_MTE2, DV_PIPE_V, ev);
    dvk_vrelu(k, buf, buf, DV_DT_F32, prm->elems / 64, 1, 1, 8, 8);
    dvk_set_flag(k, DV_PIPE_V, DV_PIPE_MTE3, ev2);
    dvk_wait_flag(k, DV_PIPE_V, DV_PIPE_MTE3, ev2);
    dvk_copy_ubuf_to_gm(k, dvk_gm(k, 1, off), buf, 1, prm->elems * 4 / 32, 0, 0);
}

/* relu_kernel without its flags: the vector unit may read the tile before MTE2 wrote it. */
static void racy_kernel(dv_k_t *k, const void *p)
{
    const scale_params_t *prm = p;
    uint64_t off = (uint64_t)dvk_block_idx(k) * prm->elems * 4;
    uint64_t buf = dvk_alloc(k, DV_SPACE_UB, prm->elems * 4);
    dvk_copy_gm_to_ubuf(k, buf, dvk_gm(k, 0, off), 1, prm->elems * 4 / 32, 0, 0);
    dvk_vrelu(k, buf, buf, DV_DT_F32, prm->elems / 64, 1, 1, 8, 8);
    dvk_pipe_barrier(k, DV_PIPE_ALL);
    dvk_copy_ubuf_to_gm(k, dvk_gm(k, 1, off), buf, 1, prm->elems * 4 / 32, 0, 0);
}

typedef struct direct_job {
    uint32_t blocks;
    uint64_t bytes;
    scale_params_t prm;
    const char *profile;  /* NULL: the default */
} direct_job_t;

/* Cycles of relu_kernel run directly on a fresh model, with its arguments where the shim puts them. */
static uint64_t direct_run(const direct_job_t *j)
{
    dv_config_t cfg;
    dvt_config(&cfg, j->profile, NULL);
    dv_arg_t args[2] = {{.name = "arg0", .bytes = j->bytes, .dtype = DV_DT_U8, .dir = DV_ARG_INOUT},
                        {.name = "arg1", .bytes = j->bytes, .dtype = DV_DT_U8, .dir = DV_ARG_INOUT}};
    dv_kernel_info_t info = {.name = "relu", .kind = DV_KIND_VECTOR, .blocks = j->blocks, .subs = 1, .nargs = 2,
                             .args = args};
    dv_kernel_t *k;
    dv_gm_t gm = {0};
    dv_counters_t cnt = {0};
    dv_error_t err = {0};
    dv_model_t *m = dvt_model(&cfg);
    ck_assert_msg(dvk_kernel_create(&cfg, &info, relu_kernel, &j->prm, sizeof j->prm, &k, &err) == DV_OK, "%s", err.msg);
    ck_assert_msg(dv_sim_gm_setup(&cfg, &info, true, "", 0x124000000000ull, &gm, &err) == DV_OK, "%s", err.msg);
    ck_assert_msg(dv_model_run(m, k, &gm, NULL, &cnt, &err) == DV_OK, "%s", err.msg);
    const uint64_t cycles = cnt.cycles;
    dv_counters_free(&cnt);
    dv_sim_gm_free(&gm);
    dvk_kernel_destroy(k);
    dv_model_destroy(m);
    return cycles;
}

/* DVSIM_WARM_UP=1: each kernel runs once unmeasured on the same memory first, so its measured run
 * finds its 16 KB input in L2 (fewer cycles than a cold run), and the results are the same. */
static float relu_elapsed_ms(const char *warm_up, const float *hx, float *hy, size_t bytes, scale_params_t *prm)
{
    void *x, *y;
    aclrtStream s;
    aclrtEvent e0, e1;
    float ms;
    setenv("DVSIM_WARM_UP", warm_up, 1);
    up();
    unsetenv("DVSIM_WARM_UP");
    OK(aclrtCreateStream(&s));
    OK(aclrtMalloc(&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMemcpy(x, bytes, hx, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    OK(aclrtCreateEvent(&e0));
    OK(aclrtCreateEvent(&e1));
    void *gm[2] = {x, y};
    OK(aclrtRecordEvent(e0, s));
    OK(dvsimLaunchKernel("relu", relu_kernel, DV_KIND_VECTOR, 4, s, gm, 2, prm, sizeof *prm));
    OK(aclrtRecordEvent(e1, s));
    OK(aclrtSynchronizeStream(s));
    OK(aclrtEventElapsedTime(&ms, e0, e1));
    OK(aclrtMemcpy(hy, bytes, y, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    down();
    return ms;
}

START_TEST(test_acl_warm_up)
{
    scale_params_t prm = {1024};
    const size_t bytes = (size_t)4 * prm.elems * 4;
    float *hx = malloc(bytes), *hy = malloc(bytes);
    for (size_t i = 0; i < bytes / 4; i++)
        hx[i] = (float)((int)(i % 13) - 6) * 0.25f;
    const float cold = relu_elapsed_ms("0", hx, hy, bytes, &prm);
    const float warm = relu_elapsed_ms("1", hx, hy, bytes, &prm);
    for (size_t i = 0; i < bytes / 4; i++)
        ck_assert_float_eq(hy[i], hx[i] > 0 ? hx[i] : 0.0f);
    ck_assert_msg(warm < cold, "warm %f ms not below cold %f ms", warm, cold);
    setenv("DVSIM_WARM_UP", "lots", 1);
    FAILS(aclInit(NULL), ACL_ERROR_INVALID_PARAM, "DVSIM_WARM_UP: 'lots' is not a number of runs from 0 to 100");
    unsetenv("DVSIM_WARM_UP");
    free(hx);
    free(hy);
}
END_TEST

START_TEST(test_acl_custom_kernel_results_and_time)
{
    dv_config_t cfg = profile();
    const uint32_t blocks = 4;
    scale_params_t prm = {1024};
    const size_t bytes = (size_t)blocks * prm.elems * 4;
    float *hx = malloc(bytes), *hy = malloc(bytes);
    void *x, *y;
    aclrtStream s;
    aclrtEvent e0, e1;
    float ms;
    for (size_t i = 0; i < bytes / 4; i++)
        hx[i] = (float)((int)(i % 17) - 8) * 0.5f;
    direct_job_t job = {blocks, bytes, prm, NULL};
    uint64_t direct = direct_run(&job);
    up();
    OK(aclrtCreateStream(&s));
    OK(aclrtMalloc(&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMemcpy(x, bytes, hx, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    OK(aclrtCreateEvent(&e0));
    OK(aclrtCreateEvent(&e1));
    void *gm[2] = {x, y};
    OK(aclrtRecordEvent(e0, s));
    OK(dvsimLaunchKernel("relu", relu_kernel, DV_KIND_VECTOR, blocks, s, gm, 2, &prm, sizeof prm));
    OK(aclrtRecordEvent(e1, s));
    OK(aclrtSynchronizeStream(s));
    OK(aclrtMemcpy(hy, bytes, y, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (size_t i = 0; i < bytes / 4; i++)
        ck_assert_float_eq(hy[i], hx[i] > 0 ? hx[i] : 0.0f);
    /* the events see exactly the model's cycles for the kernel */
    OK(aclrtEventElapsedTime(&ms, e0, e1));
    ck_assert_uint_gt(direct, 0);
    ck_assert_float_eq(ms, (float)((double)direct / (double)cfg.chip_freq_mhz / 1000.0));
    /* bad launches */
    FAILS(dvsimLaunchKernel("relu", relu_kernel, DV_KIND_VECTOR, 0, s, gm, 2, &prm, sizeof prm), ACL_ERROR_INVALID_PARAM,
          "blockDim 0");
    void *bad[2] = {x, hx};
    FAILS(dvsimLaunchKernel("relu", relu_kernel, DV_KIND_VECTOR, blocks, s, bad, 2, &prm, sizeof prm),
          ACL_ERROR_INVALID_PARAM, "GM argument 1");
    /* the output one block short: the kernel's last stores leave its argument */
    void *shortp;
    OK(aclrtMalloc(&shortp, bytes - prm.elems * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    void *gm2[2] = {x, shortp};
    OK(dvsimLaunchKernel("relu", relu_kernel, DV_KIND_VECTOR, blocks, s, gm2, 2, &prm, sizeof prm));
    FAILS(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, "GM access outside argument 'arg1'");
    OK(aclrtSynchronizeStream(s)); /* reported once */
    /* a free runs the queued work first; the failure waits for the next synchronisation */
    void *spare;
    OK(aclrtMalloc(&spare, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(dvsimLaunchKernel("relu", relu_kernel, DV_KIND_VECTOR, blocks, s, gm2, 2, &prm, sizeof prm));
    OK(aclrtFree(spare));
    FAILS(aclrtSynchronizeDevice(), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, "GM access outside argument 'arg1'");
    /* the device goes on working */
    OK(dvsimLaunchKernel("relu", relu_kernel, DV_KIND_VECTOR, blocks, s, gm, 2, &prm, sizeof prm));
    OK(aclrtSynchronizeStream(s));
    down();
    free(hx);
    free(hy);
}
END_TEST

/* With ACL_STOP_ON_FAILURE, the tasks after a failed kernel on its stream are dropped. */
START_TEST(test_acl_stream_stop_on_failure)
{
    scale_params_t prm = {1024};
    const size_t bytes = prm.elems * 4;
    void *x, *y, *shortp;
    aclrtStream s;
    uint8_t h[64];
    up();
    OK(aclrtCreateStream(&s));
    OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    FAILS(aclrtSetStreamFailureMode(s, 7), ACL_ERROR_INVALID_PARAM, "mode 7");
    OK(aclrtMalloc(&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&y, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&shortp, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMemset(y, 64, 0, 64));
    void *gm[2] = {x, shortp};
    memset(h, 0x33, sizeof h);
    OK(dvsimLaunchKernel("relu", relu_kernel, DV_KIND_VECTOR, 1, s, gm, 2, &prm, sizeof prm));
    OK(aclrtMemcpyAsync(y, 64, h, 64, ACL_MEMCPY_HOST_TO_DEVICE, s));
    FAILS(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, "outside argument");
    OK(aclrtMemcpy(h, 64, y, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    ck_assert_uint_eq(h[0], 0); /* the copy after the failure never ran */
    down();
}
END_TEST

START_TEST(test_acl_launch_trace)
{
    char path[1024];
    const char *root = getenv("DVSIM_ROOT");
    snprintf(path, sizeof path, "%s/traces/vadd_double_buffer.trace", root ? root : ".");
    const size_t bytes = 524288;
    void *x, *y, *z;
    uint16_t *hx = malloc(bytes), *hy = malloc(bytes), *hz = malloc(bytes);
    for (size_t i = 0; i < bytes / 2; i++) {
        hx[i] = aclFloatToFloat16((float)(i % 31));
        hy[i] = aclFloatToFloat16(0.5f);
    }
    up();
    OK(aclrtMalloc(&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&z, bytes / 2, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMemcpy(x, bytes, hx, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    OK(aclrtMemcpy(y, bytes, hy, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    void *two[2] = {x, y}, *args[3] = {x, y, z};
    FAILS(dvsimLaunchTrace(path, NULL, two, 2), ACL_ERROR_INVALID_PARAM, "declares 3 GM arguments, 2 were given");
    FAILS(dvsimLaunchTrace(path, NULL, args, 3), ACL_ERROR_INVALID_PARAM, "the trace declares 524288 bytes");
    FAILS(dvsimLaunchTrace("/nonexistent.trace", NULL, args, 3), ACL_ERROR_INVALID_FILE, "nonexistent.trace");
    OK(aclrtFree(z));
    OK(aclrtMalloc(&z, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    args[2] = z;
    OK(dvsimLaunchTrace(path, NULL, args, 3));
    OK(aclrtSynchronizeDevice());
    OK(aclrtMemcpy(hz, bytes, z, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (size_t i = 0; i < bytes / 2; i++)
        ck_assert_uint_eq(hz[i], aclFloatToFloat16((float)(i % 31) + 0.5f));
    down();
    free(hx);
    free(hy);
    free(hz);
}
END_TEST

/* ---------------------------------------------------------------- profiling */

/* Column `col` (0-based) of CSV line `line` (0 = header); quoted fields may hold commas. */
static void csv_field(const char *path, int line, int col, char *out, size_t cap)
{
    char buf[8192];
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i <= line; i++)
        ck_assert_ptr_nonnull(fgets(buf, sizeof buf, f));
    fclose(f);
    int c = 0;
    bool q = false;
    size_t n = 0;
    for (char *p = buf; *p && *p != '\n'; p++) {
        if (*p == '"')
            q = !q;
        else if (*p == ',' && !q)
            c++;
        else if (c == col && n + 1 < cap)
            out[n++] = *p;
    }
    out[n] = 0;
}

static int csv_col(const char *path, const char *name)
{
    char buf[128];
    for (int c = 0; c < 64; c++) {
        csv_field(path, 0, c, buf, sizeof buf);
        if (strcmp(buf, name) == 0)
            return c;
    }
    ck_abort_msg("no column %s", name);
    return -1;
}

START_TEST(test_acl_profiling_api)
{
    char dir[] = "/tmp/dvsim_prof_XXXXXX", csv[128], val[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(csv, sizeof csv, "%s/op_summary.csv", dir);
    scale_params_t prm = {2048};
    void *x, *y;
    uint32_t devs[1] = {0};
    up();
    OK(aclrtMalloc(&x, 4 * prm.elems * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&y, 4 * prm.elems * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    aclprofConfig *cfg = aclprofCreateConfig(devs, 1, ACL_AICORE_PIPE_UTILIZATION, NULL, ACL_PROF_TASK_TIME);
    ck_assert_ptr_nonnull(cfg);
    FAILS(aclprofStart(cfg), ACL_ERROR_INVALID_PROFILING_CONFIG, "aclprofInit first");
    OK(aclprofInit(dir, strlen(dir)));
    OK(aclprofStart(cfg));
    FAILS(aclprofStart(cfg), ACL_ERROR_PROF_ALREADY_RUN, "already running");
    void *gm[2] = {x, y};
    OK(dvsimLaunchKernel("relu", relu_kernel, DV_KIND_VECTOR, 4, NULL, gm, 2, &prm, sizeof prm));
    OK(dvsimLaunchKernel("racy", racy_kernel, DV_KIND_VECTOR, 4, NULL, gm, 2, &prm, sizeof prm));
    OK(aclprofStop(cfg));
    FAILS(aclprofStop(cfg), ACL_ERROR_PROF_NOT_RUN, "not running");
    /* outside the window: not profiled */
    OK(dvsimLaunchKernel("relu", relu_kernel, DV_KIND_VECTOR, 4, NULL, gm, 2, &prm, sizeof prm));
    OK(aclrtSynchronizeDevice());
    ck_assert_int_eq(count_lines(csv), 3);
    csv_field(csv, 1, csv_col(csv, "hazards"), val, sizeof val);
    ck_assert_str_eq(val, "0");
    csv_field(csv, 2, csv_col(csv, "hazards"), val, sizeof val);
    ck_assert_int_gt(atoi(val), 0);
    csv_field(csv, 2, csv_col(csv, "Task ID"), val, sizeof val);
    ck_assert_str_eq(val, "2");
    csv_field(csv, 1, csv_col(csv, "Block Dim"), val, sizeof val);
    ck_assert_str_eq(val, "4");
    csv_field(csv, 1, csv_col(csv, "Task Type"), val, sizeof val);
    ck_assert_str_eq(val, "AI_VECTOR_CORE");
    csv_field(csv, 1, csv_col(csv, "OP Type"), val, sizeof val);
    ck_assert_str_eq(val, "relu");
    /* each block holds its 8 KB tile in UB from the load to the store */
    csv_field(csv, 1, csv_col(csv, "ub_peak_bytes"), val, sizeof val);
    ck_assert_str_eq(val, "8192");
    csv_field(csv, 1, csv_col(csv, "aic_total_cycles"), val, sizeof val);
    ck_assert_str_eq(val, "N/A");
    csv_field(csv, 1, csv_col(csv, "aiv_total_cycles"), val, sizeof val);
    ck_assert_int_gt(atoi(val), 0);
    OK(aclprofDestroyConfig(cfg));
    OK(aclprofFinalize());
    FAILS(aclprofFinalize(), ACL_ERROR_PROF_NOT_RUN, "aclprofInit");
    char tl[128];
    snprintf(tl, sizeof tl, "%s/timeline.json", dir);
    ck_assert_int_gt(count_lines(tl), 3);
    down();
}
END_TEST

/* The number of lines of path that contain needle. */
static int count_matching(const char *path, const char *needle)
{
    char buf[8192];
    int n = 0;
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    while (fgets(buf, sizeof buf, f))
        n += strstr(buf, needle) != NULL;
    fclose(f);
    return n;
}

/* DVSIM_PIPE_TIMELINE=1 while profiling: each kernel run writes DIR/pipes_<Task ID>_<name>.json, one
 * slice per instruction executed (as many as op_hotspot.csv counts for the task), on each core that
 * ran a block; another value fails the launch naming the variable. */
START_TEST(test_acl_profiling_pipe_timeline)
{
    char dir[] = "/tmp/dvsim_pipes_XXXXXX", path[160], val[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    scale_params_t prm = {2048};
    void *x, *y;
    up();
    OK(aclrtMalloc(&x, 4 * prm.elems * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&y, 4 * prm.elems * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclprofInit(dir, strlen(dir)));
    uint32_t devs[1] = {0};
    aclprofConfig *cfg = aclprofCreateConfig(devs, 1, ACL_AICORE_PIPE_UTILIZATION, NULL, ACL_PROF_TASK_TIME);
    OK(aclprofStart(cfg));
    void *gm[2] = {x, y};
    setenv("DVSIM_PIPE_TIMELINE", "yes", 1);
    OK(dvsimLaunchKernel("relu", relu_kernel, DV_KIND_VECTOR, 4, NULL, gm, 2, &prm, sizeof prm));
    FAILS(aclrtSynchronizeDevice(), ACL_ERROR_INVALID_PARAM, "DVSIM_PIPE_TIMELINE='yes': expected 0 or 1");
    setenv("DVSIM_PIPE_TIMELINE", "1", 1);
    OK(dvsimLaunchKernel("relu", relu_kernel, DV_KIND_VECTOR, 4, NULL, gm, 2, &prm, sizeof prm));
    OK(aclrtSynchronizeDevice());
    unsetenv("DVSIM_PIPE_TIMELINE");
    OK(dvsimLaunchKernel("relu", relu_kernel, DV_KIND_VECTOR, 4, NULL, gm, 2, &prm, sizeof prm));
    OK(aclrtSynchronizeDevice());
    OK(aclprofStop(cfg));
    OK(aclprofDestroyConfig(cfg));
    OK(aclprofFinalize());
    char hot[128];
    snprintf(hot, sizeof hot, "%s/op_hotspot.csv", dir);
    long insns = 0;
    for (int row = 1; row < count_lines(hot); row++) {
        csv_field(hot, row, csv_col(hot, "Task ID"), val, sizeof val);
        if (strcmp(val, "1") == 0) {
            csv_field(hot, row, csv_col(hot, "Count"), val, sizeof val);
            insns += atol(val);
        }
    }
    ck_assert_int_gt(insns, 0);
    snprintf(path, sizeof path, "%s/pipes_1_relu.json", dir);
    ck_assert_int_eq(count_matching(path, "{\"ph\":\"X\""), insns);
    ck_assert_int_eq(count_matching(path, "\"name\":\"process_name\""), 4); /* the 4 cores of the blocks */
    snprintf(path, sizeof path, "%s/pipes_2_relu.json", dir); /* the second run was not asked for */
    ck_assert_int_ne(access(path, F_OK), 0);
    down();
}
END_TEST

/* ---------------------------------------------------------------- NULL arguments */

START_TEST(test_acl_null_arguments)
{
    aclrtStream s;
    aclrtEvent e;
    void *d;
    up();
    OK(aclrtCreateStream(&s));
    OK(aclrtCreateEvent(&e));
    OK(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    FAILS(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM, "stream is NULL");
    FAILS(aclrtCreateEvent(NULL), ACL_ERROR_INVALID_PARAM, "event is NULL");
    FAILS(aclrtCreateContext(NULL, 0), ACL_ERROR_INVALID_PARAM, "context is NULL");
    FAILS(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM, "deviceId is NULL");
    FAILS(aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM, "count is NULL");
    FAILS(aclrtGetRunMode(NULL), ACL_ERROR_INVALID_PARAM, "runMode is NULL");
    FAILS(aclrtGetMemInfo(ACL_HBM_MEM, NULL, NULL), ACL_ERROR_INVALID_PARAM, "NULL");
    FAILS(aclrtGetVersion(NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM, "NULL");
    FAILS(aclrtMallocHost(NULL, 64), ACL_ERROR_INVALID_PARAM, "hostPtr is NULL");
    FAILS(aclrtMemcpy(d, 64, NULL, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM, "src is NULL");
    FAILS(aclrtMemset(NULL, 64, 0, 64), ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
    FAILS(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM, "stream is NULL");
    FAILS(aclrtDestroyEvent(NULL), ACL_ERROR_INVALID_PARAM, "not a live event");
    FAILS(aclrtRecordEvent(NULL, s), ACL_ERROR_INVALID_PARAM, "not a live event");
    FAILS(aclrtStreamWaitEvent(s, NULL), ACL_ERROR_INVALID_PARAM, "not a live event");
    FAILS(aclrtEventElapsedTime(NULL, e, e), ACL_ERROR_INVALID_PARAM, "ms is NULL");
    FAILS(aclrtEventGetTimestamp(e, NULL), ACL_ERROR_INVALID_PARAM, "timestamp is NULL");
    FAILS(aclrtQueryEventStatus(e, NULL), ACL_ERROR_INVALID_PARAM, "status is NULL");
    FAILS(aclrtStreamQuery(s, NULL), ACL_ERROR_INVALID_PARAM, "status is NULL");
    FAILS(aclrtLaunchCallback(NULL, NULL, ACL_CALLBACK_BLOCK, s), ACL_ERROR_INVALID_PARAM, "fn is NULL");
    FAILS(aclrtSetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM, "not a live context");
    FAILS(aclrtDestroyContext(NULL), ACL_ERROR_INVALID_PARAM, "not a live context");
    FAILS(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, NULL), ACL_ERROR_INVALID_PARAM, "value is NULL");
    FAILS(aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, NULL), ACL_ERROR_INVALID_PARAM, "value is NULL");
    FAILS(aclDestroyDataBuffer(NULL), ACL_ERROR_INVALID_PARAM, "not a live data buffer");
    ck_assert_ptr_null(aclGetDataBufferAddr(NULL));
    FAILS(aclprofInit(NULL, 0), ACL_ERROR_INVALID_PARAM, "profilerResultPath is NULL");
    ck_assert_ptr_null(aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, 0));
    FAILS(aclprofStart(NULL), ACL_ERROR_INVALID_PARAM, "not a live profiling config");
    FAILS(dvsimLaunchKernel(NULL, NULL, DV_KIND_VECTOR, 1, s, NULL, 0, NULL, 0), ACL_ERROR_INVALID_PARAM, "NULL");
    FAILS(dvsimLaunchTrace(NULL, s, NULL, 0), ACL_ERROR_INVALID_PARAM, "NULL");
    /* nothing above disturbed the device */
    uint8_t h[64] = {1, 2, 3};
    OK(aclrtMemcpy(d, 64, h, 64, ACL_MEMCPY_HOST_TO_DEVICE));
    OK(aclrtSynchronizeDevice());
    down();
}
END_TEST

/* ---------------------------------------------------------------- host threads */

typedef struct worker {
    aclrtStream stream;
    float scale;
    int ok;
} worker_t;

/* Each thread: its own stream and buffers, a copy in, a kernel, a copy out, checked. */
static void *worker_main(void *p)
{
    worker_t *w = p;
    scale_params_t prm = {512};
    const size_t bytes = 2 * prm.elems * 4;
    float hx[1024], hy[1024];
    void *x = NULL, *y = NULL;
    for (int i = 0; i < 1024; i++)
        hx[i] = w->scale * (float)(i % 7 - 3);
    w->ok = aclrtMalloc(&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS &&
            aclrtMalloc(&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS;
    for (int round = 0; round < 4 && w->ok; round++) {
        void *gm[2] = {x, y};
        w->ok = aclrtMemcpyAsync(x, bytes, hx, bytes, ACL_MEMCPY_HOST_TO_DEVICE, w->stream) == ACL_SUCCESS &&
                dvsimLaunchKernel("relu", relu_kernel, DV_KIND_VECTOR, 2, w->stream, gm, 2, &prm, sizeof prm) ==
                    ACL_SUCCESS &&
                aclrtMemcpyAsync(hy, bytes, y, bytes, ACL_MEMCPY_DEVICE_TO_HOST, w->stream) == ACL_SUCCESS &&
                aclrtSynchronizeStream(w->stream) == ACL_SUCCESS;
        for (int i = 0; i < 1024 && w->ok; i++)
            w->ok = hy[i] == (hx[i] > 0 ? hx[i] : 0.0f);
    }
    w->ok = w->ok && aclrtFree(x) == ACL_SUCCESS && aclrtFree(y) == ACL_SUCCESS;
    return NULL;
}

START_TEST(test_acl_two_host_threads)
{
    worker_t w[2] = {{NULL, 1.0f, 0}, {NULL, -2.0f, 0}};
    pthread_t th[2];
    up();
    for (int i = 0; i < 2; i++)
        OK(aclrtCreateStream(&w[i].stream));
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(pthread_create(&th[i], NULL, worker_main, &w[i]), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    ck_assert_int_eq(w[0].ok, 1);
    ck_assert_int_eq(w[1].ok, 1);
    size_t fr, total;
    OK(aclrtGetMemInfo(ACL_HBM_MEM, &fr, &total));
    ck_assert_uint_eq(fr, total); /* every allocation of both threads is back */
    down();
}
END_TEST

/* Destroyed, foreign and garbage handles are refused without being read (ASan would see a read). */
START_TEST(test_acl_stale_and_garbage_handles)
{
    void *garbage = (void *)(uintptr_t)0x7ff000001230ull;
    aclrtContext ctx;
    up();
    OK(aclrtCreateContext(&ctx, 0));
    OK(aclrtDestroyContext(ctx));
    FAILS(aclrtDestroyContext(ctx), ACL_ERROR_INVALID_PARAM, "not a live context");
    FAILS(aclrtSetCurrentContext(garbage), ACL_ERROR_INVALID_PARAM, "not a live context");
    aclDataBuffer *b = aclCreateDataBuffer(NULL, 16);
    ck_assert_ptr_nonnull(b);
    OK(aclDestroyDataBuffer(b));
    FAILS(aclDestroyDataBuffer(b), ACL_ERROR_INVALID_PARAM, "not a live data buffer");
    FAILS(aclDestroyDataBuffer(garbage), ACL_ERROR_INVALID_PARAM, "not a live data buffer");
    ck_assert_uint_eq(aclGetDataBufferSizeV2(b), 0);
    uint32_t dev0 = 0;
    aclprofConfig *pc = aclprofCreateConfig(&dev0, 1, ACL_AICORE_NONE, NULL, 0);
    ck_assert_ptr_nonnull(pc);
    OK(aclprofDestroyConfig(pc));
    FAILS(aclprofDestroyConfig(pc), ACL_ERROR_INVALID_PARAM, "not a live profiling config");
    int64_t dims[2] = {2, 8};
    aclTensor *t = aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 2, NULL);
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(aclDestroyTensor(t), 0);
    FAILS(aclDestroyTensor(t), 161002, "not a live aclTensor");
    FAILS(aclDestroyTensor((const aclTensor *)garbage), 161002, "not a live aclTensor");
    float one = 1.0f;
    aclScalar *sc = aclCreateScalar(&one, ACL_FLOAT);
    ck_assert_int_eq(aclDestroyScalar(sc), 0);
    FAILS(aclDestroyScalar(sc), 161002, "not a live aclScalar");
    FAILS(aclDestroyAclOpExecutor((aclOpExecutor *)garbage), 161002, "not a live aclOpExecutor");
    down();
}
END_TEST

/* Cycles of a library operator command run as `dvsim op` runs it (on a fresh model). */
static uint64_t op_run(const char *cmd)
{
    dvt_op_t r;
    ck_assert_msg(dvt_op(&r, NULL, NULL, cmd, true, false) == DV_OK, "%s: %s", cmd, r.err.msg);
    const uint64_t cycles = r.cnt.cycles;
    dvt_op_free(&r);
    return cycles;
}

/* The shim adds nothing to a kernel: aclnnAdd between two events takes the cycles of
 * `dvsim op add` with the parameters it maps to. */
START_TEST(test_acl_aclnn_time_is_the_operators)
{
    dv_config_t cfg = profile();
    uint64_t want = op_run("add --shape 4x2048 --dtype fp32 --alpha 1.5");
    ck_assert_uint_gt(want, 0);
    int64_t dims[2] = {4, 2048};
    const size_t bytes = 4 * 2048 * 4;
    void *a, *b, *c;
    aclrtEvent e0, e1;
    aclOpExecutor *ex;
    uint64_t ws = 1;
    float alpha = 1.5f, ms;
    up();
    OK(aclrtMalloc(&a, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&b, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&c, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    aclTensor *ta = aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 2, a);
    aclTensor *tb = aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 2, b);
    aclTensor *tc = aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 2, c);
    aclScalar *sa = aclCreateScalar(&alpha, ACL_FLOAT);
    OK(aclrtCreateEvent(&e0));
    OK(aclrtCreateEvent(&e1));
    ck_assert_int_eq(aclnnAddGetWorkspaceSize(ta, tb, sa, tc, &ws, &ex), 0);
    ck_assert_uint_eq(ws, 0);
    OK(aclrtRecordEvent(e0, NULL));
    ck_assert_int_eq(aclnnAdd(NULL, 0, ex, NULL), 0);
    OK(aclrtRecordEvent(e1, NULL));
    OK(aclrtSynchronizeDevice());
    OK(aclrtEventElapsedTime(&ms, e0, e1));
    ck_assert_float_eq(ms, (float)((double)want / (double)cfg.chip_freq_mhz / 1000.0));
    aclDestroyTensor(ta);
    aclDestroyTensor(tb);
    aclDestroyTensor(tc);
    aclDestroyScalar(sa);
    down();
}
END_TEST

/* The kernel time of relu_kernel (2 blocks) on the default stream, from events around it, in a
 * session of profile `name` (NULL: the default), and the SoC name the session reports. */
static float session_relu_ms(const char *name, char *soc, size_t socn)
{
    scale_params_t prm = {1024};
    const size_t bytes = 2 * prm.elems * 4;
    void *x, *y;
    aclrtEvent e0, e1;
    float ms = 0;
    if (name)
        setenv("DVSIM_PROFILE", name, 1);
    up();
    unsetenv("DVSIM_PROFILE");
    snprintf(soc, socn, "%s", aclrtGetSocName());
    OK(aclrtMalloc(&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtCreateEvent(&e0));
    OK(aclrtCreateEvent(&e1));
    void *gm[2] = {x, y};
    OK(aclrtRecordEvent(e0, NULL));
    OK(dvsimLaunchKernel("relu", relu_kernel, DV_KIND_VECTOR, 2, NULL, gm, 2, &prm, sizeof prm));
    OK(aclrtRecordEvent(e1, NULL));
    OK(aclrtSynchronizeDevice());
    OK(aclrtEventElapsedTime(&ms, e0, e1));
    down();
    return ms;
}

/* aclFinalize ends the session and its model: a later aclInit may choose another profile, and its
 * kernels take that profile's cycles, those of a fresh model of it (a cold L2: the first session's
 * data is not found in the second's L2 even when the profile is the same again). */
START_TEST(test_acl_second_profile_after_finalize)
{
    static const char *const names[] = {NULL, "ascend310", NULL};
    static const char *const socs[] = {"Ascend910B2", "Ascend310", "Ascend910B2"};
    float ms[3];
    for (int i = 0; i < 3; i++) {
        char soc[64];
        ms[i] = session_relu_ms(names[i], soc, sizeof soc);
        ck_assert_str_eq(soc, socs[i]);
        direct_job_t job = {2, 2 * 1024 * 4, {1024}, names[i]};
        dv_config_t cfg;
        dvt_config(&cfg, names[i], NULL);
        ck_assert_float_eq(ms[i], (float)((double)direct_run(&job) / (double)cfg.chip_freq_mhz / 1000.0));
    }
    ck_assert_float_ne(ms[0], ms[1]);
    ck_assert_float_eq(ms[0], ms[2]);
}
END_TEST

Suite *dv_acl_suite(void)
{
    Suite *s = suite_create("acl");
    TCase *t = tcase_create("runtime");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, test_acl_init_states);
    tcase_add_test(t, test_acl_set_device_initialises);
    tcase_add_test(t, test_acl_last_error);
    tcase_add_test(t, test_acl_chip_profile_without_init);
    tcase_add_test(t, test_acl_memory_capacity_and_info);
    tcase_add_test(t, test_acl_memory_bad_frees_and_copies);
    tcase_add_test(t, test_acl_memory_copy_kinds);
    tcase_add_test(t, test_acl_event_times_copy);
    tcase_add_test(t, test_acl_streams_overlap_and_wait);
    tcase_add_test(t, test_acl_custom_kernel_results_and_time);
    tcase_add_test(t, test_acl_warm_up);
    tcase_add_test(t, test_acl_stream_stop_on_failure);
    tcase_add_test(t, test_acl_launch_trace);
    tcase_add_test(t, test_acl_profiling_api);
    tcase_add_test(t, test_acl_profiling_pipe_timeline);
    tcase_add_test(t, test_acl_callback_cannot_free_running_work);
    tcase_add_test(t, test_acl_callback_frees_what_the_caller_frees);
    tcase_add_test(t, test_acl_wait_on_discarded_record);
    tcase_add_test(t, test_acl_null_arguments);
    tcase_add_test(t, test_acl_two_host_threads);
    tcase_add_test(t, test_acl_stale_and_garbage_handles);
    tcase_add_test(t, test_acl_aclnn_time_is_the_operators);
    tcase_add_test(t, test_acl_second_profile_after_finalize);
    tcase_add_test(t, test_acl_queries_before_init);
    tcase_add_test(t, test_acl_memset_host_memory);
    tcase_add_test(t, test_acl_queries_report_not_ready);
    tcase_add_test(t, test_acl_force_destroy_runs_submitted_work);
    tcase_add_test(t, test_acl_notify);
    tcase_add_test(t, test_acl_hostfunc_reports_and_stream_queries);
    tcase_add_test(t, test_acl_runtime_families);
    tcase_add_test(t, test_acl_allocator_registration);
    suite_add_tcase(s, t);
    return s;
}
