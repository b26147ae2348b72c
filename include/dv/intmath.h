/* dv/intmath.h - the small integer helpers every module shares: ceiling division, rounding up to
 * a multiple, min/max, power-of-two test, bit count.  Header-only (static inline), usable from C and C++. */
#ifndef DV_INTMATH_H
#define DV_INTMATH_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ceil(a / b) for b > 0; exact for every a (no a + b - 1 overflow). */
static inline uint64_t dv_ceil_div(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

/* a rounded up to the next multiple of b (b > 0). */
static inline uint64_t dv_round_up(uint64_t a, uint64_t b) { return dv_ceil_div(a, b) * b; }

static inline uint64_t dv_min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static inline uint64_t dv_max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* v is a power of two (0 is not). */
static inline bool dv_is_pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

/* The bits set in x.  Without the POPCNT instruction (not in the baseline x86-64 dvsim builds for)
 * __builtin_popcountll is a libgcc call; the bit-parallel sum is a dozen instructions inline. */
static inline uint64_t dv_popcount64(uint64_t x)
{
#if defined(__POPCNT__)
    return (uint64_t)__builtin_popcountll(x);
#else
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (x * 0x0101010101010101ull) >> 56;
#endif
}

#ifdef __cplusplus
}
#endif
#endif
