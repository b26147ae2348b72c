/* tests/asan_shim.c - make asan: the AscendCL shim built with ASan + UBSan loads with the two libraries
 * CANN programs link besides it (libnnopbase.so, libopapi.so) and runs a session, under ASan's strict
 * one-definition-rule check (was: an abort, a global defined with different sizes in two of them). */
#include <stdio.h>

#include "acl/acl.h"

int main(void)
{
    void *p;
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
        aclrtMalloc(&p, 1024, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS || aclrtFree(p) != ACL_SUCCESS ||
        aclrtResetDevice(0) != ACL_SUCCESS || aclFinalize() != ACL_SUCCESS) {
        printf("asan_shim: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    puts("asan_shim: the ASan shim loads with libnnopbase and libopapi and runs a session");
    return 0;
}
