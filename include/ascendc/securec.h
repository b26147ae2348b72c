/* securec.h - the bounds-checked memory functions of Huawei's libboundscheck (securec) that CANN's host headers
 * bring and its samples call (memcpy_s, memmove_s, memset_s), header-only.  Return codes are libboundscheck's:
 * EOK 0; EINVAL for a NULL or zero-sized destination (and, destination cleared, a NULL source); ERANGE_AND_RESET
 * (destination cleared) when count exceeds destMax; EOVERLAP_AND_RESET (destination cleared) for memcpy_s of
 * overlapping ranges.  C and C++ (static inline); `make install` also puts it at include/securec.h, where CANN
 * has it for host code. */
#ifndef DVSIM_SECUREC_H
#define DVSIM_SECUREC_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifndef EOK
#define EOK 0
#endif
#ifndef ERANGE_AND_RESET
#define ERANGE_AND_RESET 162
#endif
#ifndef EOVERLAP_AND_RESET
#define EOVERLAP_AND_RESET 182
#endif
#ifndef SECUREC_MEM_MAX_LEN
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#endif
typedef int errno_t;

static inline errno_t memset_s(void *dest, size_t destMax, int c, size_t count)
{
    if (!dest || destMax == 0 || destMax > SECUREC_MEM_MAX_LEN)
        return EINVAL;
    if (count > destMax) {
        memset(dest, c, destMax);
        return ERANGE_AND_RESET;
    }
    memset(dest, c, count);
    return EOK;
}
static inline errno_t memmove_s(void *dest, size_t destMax, const void *src, size_t count)
{
    if (!dest || destMax == 0 || destMax > SECUREC_MEM_MAX_LEN)
        return EINVAL;
    if (!src) {
        memset(dest, 0, destMax);
        return EINVAL;
    }
    if (count > destMax) {
        memset(dest, 0, destMax);
        return ERANGE_AND_RESET;
    }
    memmove(dest, src, count);
    return EOK;
}
static inline errno_t memcpy_s(void *dest, size_t destMax, const void *src, size_t count)
{
    if (!dest || destMax == 0 || destMax > SECUREC_MEM_MAX_LEN)
        return EINVAL;
    if (!src) {
        memset(dest, 0, destMax);
        return EINVAL;
    }
    if (count > destMax) {
        memset(dest, 0, destMax);
        return ERANGE_AND_RESET;
    }
    const uintptr_t d = (uintptr_t)dest, s = (uintptr_t)src;
    if (count && ((d <= s && s < d + count) || (s <= d && d < s + count))) {
        memset(dest, 0, destMax);
        return EOVERLAP_AND_RESET;
    }
    memcpy(dest, src, count);
    return EOK;
}

#endif
