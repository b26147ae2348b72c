/* main.c - host side of the add_custom sample: launch a C kernel with ACLRT_LAUNCH_KERNEL, check
 * z == x + y (fp16), then show what a kernel that writes past its output buffer gets. */
#include <stdio.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "aclrtlaunch_add_custom.h"

#define CHECK(expr)                                                                                                    \
    do {                                                                                                               \
        aclError rc_ = (expr);                                                                                         \
        if (rc_ != ACL_SUCCESS) {                                                                                      \
            printf("FAIL %s:%d: %s returned %d: %s\n", __FILE__, __LINE__, #expr, rc_, aclGetRecentErrMsg());        \
            return 1;                                                                                                  \
        }                                                                                                              \
    } while (0)

enum { BLOCKS = 8, TOTAL = 8 * 2048 };

int main(void)
{
    size_t bytes = TOTAL * sizeof(aclFloat16);
    aclFloat16 *hx = malloc(bytes), *hy = malloc(bytes), *hz = malloc(bytes);
    void *dx, *dy, *dz, *small;
    aclrtStream stream;
    if (!hx || !hy || !hz)
        return 1;
    for (int i = 0; i < TOTAL; i++) {
        hx[i] = aclFloatToFloat16((float)(i % 97) * 0.25f);
        hy[i] = aclFloatToFloat16((float)(i % 13) - 6.5f);
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&stream));
    CHECK(aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dz, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(dx, bytes, hx, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(dy, bytes, hy, bytes, ACL_MEMCPY_HOST_TO_DEVICE));

    CHECK(ACLRT_LAUNCH_KERNEL(add_custom)(BLOCKS, stream, dx, dy, dz));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(hz, bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    int bad = 0;
    for (int i = 0; i < TOTAL; i++) {
        aclFloat16 want = aclFloatToFloat16(aclFloat16ToFloat(hx[i]) + aclFloat16ToFloat(hy[i]));
        if (hz[i] != want && bad++ < 5)
            printf("z[%d] = %g, want %g\n", i, aclFloat16ToFloat(hz[i]), aclFloat16ToFloat(want));
    }
    printf("add_custom: %d of %d elements wrong\n", bad, TOTAL);

    /* an output buffer one block short: the last block's stores leave the allocation */
    CHECK(aclrtMalloc(&small, bytes - 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(ACLRT_LAUNCH_KERNEL(add_custom)(BLOCKS, stream, dx, dy, small));
    aclError rc = aclrtSynchronizeStream(stream);
    printf("overrunning launch: synchronize returned %d: %s\n", rc, aclGetRecentErrMsg());
    if (rc != ACL_ERROR_RT_VECTOR_CORE_EXCEPTION && rc != ACL_ERROR_RT_AICORE_EXCEPTION)
        bad++;

    CHECK(aclrtFree(small));
    CHECK(aclrtFree(dx));
    CHECK(aclrtFree(dy));
    CHECK(aclrtFree(dz));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    free(hx);
    free(hy);
    free(hz);
    return bad ? 1 : 0;
}
