/* dv/hostmem.h - the host's transparent huge pages, for memory the simulator writes densely: the
 * program's heap (sim/main.c) and the model's Dense arrays (model/Zeros.cpp).  A page fault costs
 * ~10 us on the VMs dvsim was measured on, a 2 MB page's ~0.1 ms: one fault for 512. */
#ifndef DV_HOSTMEM_H
#define DV_HOSTMEM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* DV_ASAN: built under AddressSanitizer (gcc's or clang's), whose allocator and stack switches are
 * its own: dvsim leaves its heap to it (sim/main.c), and announces the fibers' switches to it
 * (kernel/kapi.c). */
#if defined(__SANITIZE_ADDRESS__)
#define DV_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DV_ASAN 1
#endif
#endif

/* A transparent huge page (x86-64, and arm64 with 4 KB pages). */
#define DV_HUGE_PAGE_BYTES ((size_t)2 << 20)

/* Advise the whole huge pages within [lo, hi) for transparent huge pages (madvise MADV_HUGEPAGE):
 * advice only, which the host's THP setting decides ("never", or a host without them, leaves small
 * pages); nothing where none fits or the host has no such advice. */
void dv_advise_huge(void *lo, void *hi);

#ifdef __cplusplus
}
#endif

#endif
