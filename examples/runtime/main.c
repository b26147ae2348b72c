/* examples/runtime/main.c - the AscendCL runtime on its own, written the way a CANN user writes it:
 * init, device, context, stream, device and host memory, synchronous and asynchronous copies, memset,
 * events with the elapsed simulated time, memory info, and the error paths a careless program hits
 * (a copy past an allocation, freeing an unknown pointer, a double free).
 *
 *   gcc -I$PREFIX/include -L$PREFIX/lib main.c -lascendcl -lnnopbase -lopapi -o runtime_example
 *
 * Exits 0 only when every check holds. */
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"

#define BUF_BYTES (256u * 1024u)   /* the round-trip buffers */
#define SMALL_BYTES 512u           /* the two neighbouring allocations of the error cases */

static int g_pass, g_fail;

/* Count one check; print it when it fails. */
#define EXPECT(cond, ...)                                    \
    do {                                                     \
        if (cond) {                                          \
            g_pass++;                                        \
        } else {                                             \
            g_fail++;                                        \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);      \
            printf(__VA_ARGS__);                             \
            printf("\n");                                    \
        }                                                    \
    } while (0)

/* An ACL call that must succeed; on failure print the code and the runtime's message, then give up. */
#define ACL_OK(call)                                                                                \
    do {                                                                                            \
        aclError ret_ = (call);                                                                     \
        if (ret_ != ACL_SUCCESS) {                                                                  \
            const char *msg_ = aclGetRecentErrMsg();                                                \
            printf("FAIL %s:%d: %s returned %d: %s\n", __FILE__, __LINE__, #call, ret_,             \
                   msg_ ? msg_ : "(no message)");                                                   \
            g_fail++;                                                                               \
            goto cleanup;                                                                           \
        }                                                                                           \
        g_pass++;                                                                                   \
    } while (0)

/* A release call at the end: counted like ACL_OK, but never jumps. */
static void release(aclError ret, const char *what, int line)
{
    const char *msg;
    if (ret == ACL_SUCCESS) {
        g_pass++;
        return;
    }
    msg = aclGetRecentErrMsg();
    g_fail++;
    printf("FAIL %s:%d: %s returned %d: %s\n", __FILE__, line, what, ret, msg ? msg : "(no message)");
}
#define RELEASE(call) release((call), #call, __LINE__)

/* An ACL call that must fail: count it and show the message the runtime recorded. */
static void expect_error(aclError ret, const char *what, int line)
{
    const char *msg = aclGetRecentErrMsg();
    if (ret == ACL_SUCCESS) {
        g_fail++;
        printf("FAIL %s:%d: %s succeeded but must fail\n", __FILE__, line, what);
        return;
    }
    g_pass++;
    printf("  expected error %d from %s: %s\n", ret, what, msg ? msg : "(no message)");
}
#define EXPECT_ERROR(call) expect_error((call), #call, __LINE__)

/* The first byte where a and b differ, or -1. */
static long first_diff(const unsigned char *a, const unsigned char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return (long)i;
    return -1;
}

int main(void)
{
    int32_t deviceId = 0;
    int inited = 0, device_set = 0;
    aclrtContext context = NULL;
    aclrtStream stream = NULL;
    aclrtEvent start = NULL, end = NULL;
    void *devA = NULL, *devB = NULL, *devC = NULL, *devX = NULL, *devY = NULL;
    void *hostA = NULL, *hostB = NULL;
    unsigned char pattern[SMALL_BYTES], check[SMALL_BYTES];
    size_t freeBefore = 0, totalBefore = 0, freeAfter = 0, totalAfter = 0;
    float ms = 0.0f;

    /* 1. runtime, device, context, stream */
    ACL_OK(aclInit(NULL));
    inited = 1;
    ACL_OK(aclrtSetDevice(deviceId));
    device_set = 1;
    ACL_OK(aclrtCreateContext(&context, deviceId));
    ACL_OK(aclrtCreateStream(&stream));
    const char *soc = aclrtGetSocName();
    int32_t major = 0, minor = 0, patch = 0;
    ACL_OK(aclrtGetVersion(&major, &minor, &patch));
    printf("device %d: %s, AscendCL %d.%d.%d\n", deviceId, soc ? soc : "(unknown SoC)", major, minor, patch);

    /* 2. memory: device buffers, host buffers, memory info before and after */
    ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &freeBefore, &totalBefore));
    ACL_OK(aclrtMalloc(&devA, BUF_BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&devB, BUF_BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&devC, BUF_BYTES, ACL_MEM_MALLOC_NORMAL_ONLY));
    ACL_OK(aclrtMallocHost(&hostA, BUF_BYTES));
    ACL_OK(aclrtMallocHost(&hostB, BUF_BYTES));
    ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &freeAfter, &totalAfter));
    printf("HBM: total %zu bytes, free %zu before and %zu after 3 x %u bytes\n", totalAfter, freeBefore, freeAfter,
           BUF_BYTES);
    EXPECT(freeAfter < totalAfter, "free %zu is not below total %zu after malloc", freeAfter, totalAfter);
    EXPECT(totalAfter == totalBefore, "total changed from %zu to %zu", totalBefore, totalAfter);
    EXPECT(freeBefore - freeAfter >= 3u * BUF_BYTES, "free fell by %zu bytes only", freeBefore - freeAfter);

    /* 3. synchronous round trip host -> A -> B -> host */
    for (size_t i = 0; i < BUF_BYTES; i++)
        ((unsigned char *)hostA)[i] = (unsigned char)(i * 7u + (i >> 8));
    memset(hostB, 0, BUF_BYTES);
    ACL_OK(aclrtMemcpy(devA, BUF_BYTES, hostA, BUF_BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(devB, BUF_BYTES, devA, BUF_BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE));
    ACL_OK(aclrtMemcpy(hostB, BUF_BYTES, devB, BUF_BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
    long d = first_diff(hostA, hostB, BUF_BYTES);
    EXPECT(d < 0, "round trip H2D/D2D/D2H differs at byte %ld", d);

    /* 4. memset: the whole of C, then the first half again with another value */
    ACL_OK(aclrtMemset(devC, BUF_BYTES, 0x5A, BUF_BYTES));
    ACL_OK(aclrtMemset(devC, BUF_BYTES, 0x1C3, BUF_BYTES / 2));   /* only the low byte, 0xC3, counts */
    ACL_OK(aclrtMemcpy(hostB, BUF_BYTES, devC, BUF_BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
    int memset_ok = 1;
    for (size_t i = 0; i < BUF_BYTES; i++)
        if (((unsigned char *)hostB)[i] != (i < BUF_BYTES / 2 ? 0xC3 : 0x5A)) {
            memset_ok = 0;
            printf("  memset: byte %zu is 0x%02x\n", i, ((unsigned char *)hostB)[i]);
            break;
        }
    EXPECT(memset_ok, "aclrtMemset did not write the expected bytes");

    /* 5. asynchronous copies on the stream, timed by two events */
    memset(hostB, 0, BUF_BYTES);
    ACL_OK(aclrtCreateEvent(&start));
    ACL_OK(aclrtCreateEventWithFlag(&end, ACL_EVENT_TIME_LINE));
    ACL_OK(aclrtRecordEvent(start, stream));
    ACL_OK(aclrtMemsetAsync(devC, BUF_BYTES, 0, BUF_BYTES, stream));
    ACL_OK(aclrtMemcpyAsync(devC, BUF_BYTES, hostA, BUF_BYTES, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    ACL_OK(aclrtMemcpyAsync(devB, BUF_BYTES, devC, BUF_BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
    ACL_OK(aclrtMemcpyAsync(hostB, BUF_BYTES, devB, BUF_BYTES, ACL_MEMCPY_DEVICE_TO_HOST, stream));
    ACL_OK(aclrtRecordEvent(end, stream));
    ACL_OK(aclrtSynchronizeStream(stream));
    d = first_diff(hostA, hostB, BUF_BYTES);
    EXPECT(d < 0, "asynchronous round trip differs at byte %ld", d);
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    ACL_OK(aclrtQueryEventStatus(end, &status));
    EXPECT(status == ACL_EVENT_RECORDED_STATUS_COMPLETE, "end event not complete after synchronize (%d)", status);
    ACL_OK(aclrtSynchronizeEvent(end));
    ACL_OK(aclrtEventElapsedTime(&ms, start, end));
    printf("asynchronous memset + 3 copies of %u bytes: %.6f ms simulated\n", BUF_BYTES, ms);
    EXPECT(ms > 0.0f, "elapsed time %f ms is not positive", ms);

    /* 6. error paths: each returns an error with a message and harms nothing else */
    printf("error cases:\n");
    ACL_OK(aclrtMalloc(&devX, SMALL_BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&devY, SMALL_BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    for (size_t i = 0; i < SMALL_BYTES; i++)
        pattern[i] = (unsigned char)(0xA5u ^ i);
    ACL_OK(aclrtMemcpy(devY, SMALL_BYTES, pattern, SMALL_BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
    /* count larger than destMax */
    EXPECT_ERROR(aclrtMemcpy(devX, SMALL_BYTES, hostA, 2 * SMALL_BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
    /* destMax lies: only the allocation's bounds can stop this one */
    EXPECT_ERROR(aclrtMemcpy(devX, 64u * SMALL_BYTES, hostA, 64u * SMALL_BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
    /* the same past the end of a read */
    EXPECT_ERROR(aclrtMemcpy(hostB, BUF_BYTES, devX, 64u * SMALL_BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_ERROR(aclrtMemset(devX, 64u * SMALL_BYTES, 0xFF, 64u * SMALL_BYTES));
    memset(check, 0, sizeof check);
    ACL_OK(aclrtMemcpy(check, sizeof check, devY, SMALL_BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
    d = first_diff(pattern, check, SMALL_BYTES);
    EXPECT(d < 0, "the neighbouring allocation changed at byte %ld", d);
    /* a pointer that was never allocated, and one inside an allocation */
    EXPECT_ERROR(aclrtFree((void *)(uintptr_t)0x1000));
    EXPECT_ERROR(aclrtFree((char *)devY + 64));
    /* double free */
    ACL_OK(aclrtFree(devX));
    EXPECT_ERROR(aclrtFree(devX));
    devX = NULL;
    /* the neighbour is still intact and usable */
    memset(check, 0, sizeof check);
    ACL_OK(aclrtMemcpy(check, sizeof check, devY, SMALL_BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
    d = first_diff(pattern, check, SMALL_BYTES);
    EXPECT(d < 0, "the neighbouring allocation changed at byte %ld after the bad frees", d);

cleanup:
    /* 7. release in reverse order; every release must succeed too */
    if (start)
        RELEASE(aclrtDestroyEvent(start));
    if (end)
        RELEASE(aclrtDestroyEvent(end));
    if (devY)
        RELEASE(aclrtFree(devY));
    if (devX)
        RELEASE(aclrtFree(devX));
    if (devC)
        RELEASE(aclrtFree(devC));
    if (devB)
        RELEASE(aclrtFree(devB));
    if (devA)
        RELEASE(aclrtFree(devA));
    if (hostB)
        RELEASE(aclrtFreeHost(hostB));
    if (hostA)
        RELEASE(aclrtFreeHost(hostA));
    if (stream)
        RELEASE(aclrtDestroyStream(stream));
    if (context)
        RELEASE(aclrtDestroyContext(context));
    if (device_set)
        RELEASE(aclrtResetDevice(deviceId));
    if (inited)
        RELEASE(aclFinalize());
    printf("runtime example: %d checks passed, %d failed\n", g_pass, g_fail);
    return g_fail == 0 ? 0 : 1;
}
