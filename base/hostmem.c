/* base/hostmem.c - transparent huge pages (dv/hostmem.h). */
#define _DEFAULT_SOURCE /* MADV_HUGEPAGE */
#include "dv/hostmem.h"

#include <stdint.h>
#include <sys/mman.h>

void dv_advise_huge(void *lo, void *hi)
{
#if defined(MADV_HUGEPAGE)
    const uintptr_t huge = DV_HUGE_PAGE_BYTES;
    const uintptr_t a = ((uintptr_t)lo + huge - 1) & ~(huge - 1), b = (uintptr_t)hi & ~(huge - 1);
    if ((uintptr_t)lo <= a && b > a)
        (void)madvise((void *)a, b - a, MADV_HUGEPAGE);
#else
    (void)lo;
    (void)hi;
#endif
}
