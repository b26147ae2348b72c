/* lib/matmul/l1_steps.h - how many base-K slices one GM -> L1 load of A and of B carries in CANN's Matmul
 * tiling (stepKa, stepKb; depthA1 = db x stepKa, depthB1 = db x stepKb), for the host tiling
 * (tiling/tiling_api.h) and the compile-time one (constant_tiling.h) alike.
 *
 * The rules are CANN's (asc-devkit impl/adv_api/tiling/matmul/matmul_tiling_algorithm.cpp, read for its
 * rules; docs/ASCENDC.md "Cube and Matmul API" states them with the sample that shows each):
 *  - both whole-K loads fit twice: one load each covers K (dvsim's; CANN then searches its full-load modes);
 *  - otherwise neither matrix is loaded whole (GetL1Factors): one matrix has priority - A when neither is
 *    transposed or when only B is and baseM > baseN, B when both are or when only B is and baseM <= baseN;
 *    the other first takes one slice per load, the priority matrix takes what L1 leaves, the other then
 *    takes what is left but at most CANN's MTE1 minimum (MIN_MTE1_LOAD 32 fractals); each count is cut to
 *    the nearest divisor of K's slices, then the larger to a multiple of the smaller.  With only A
 *    transposed both take the same count, at most the larger of the two minimums;
 *  - the multi-core M x N split that CANN picks for large shapes on the 910B (split_mn; CalcL1Tiling):
 *    each of A and B gets half of L1 in slices of its base tile, the smaller tile's halved when both do
 *    not fit, each load's K bytes rounded down to 512 B (256 B) multiples, the larger step cut to a
 *    multiple of the smaller.
 * Loads are double-buffered when two of each fit (one of each otherwise). */
#ifndef DVSIM_LIB_MATMUL_L1_STEPS_H
#define DVSIM_LIB_MATMUL_L1_STEPS_H

#include <algorithm>
#include <cstdint>

namespace dvac {
namespace tiling {

/* The problem: L1 bytes, the base tile, element bytes, the core's K, the transposes and the L1 bytes
 * another user (the bias row) reserves. */
struct L1Problem {
    int64_t l1, bm, bn, bk, isz, k, reserved;
    bool aTrans, bTrans;
};

/* stepKa, stepKb and the double buffering (2 or 1); all 0 when one slice of each does not fit. */
struct L1Steps {
    int32_t ka, kb, db;
};

constexpr int64_t cdiv_(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* The largest divisor of base at most f (GetNearestFactor), at least 1. */
constexpr int64_t nearest_factor(int64_t base, int64_t f)
{
    while (f > 1 && base % f)
        f--;
    return f < 1 ? 1 : f;
}

/* Bytes of one L1 load of `rows` rows carrying s slices of K. */
constexpr int64_t load_bytes(const L1Problem &p, int64_t rows, int64_t s)
{
    return rows * cdiv_(s * p.bk, 16) * 16 * p.isz;
}

/* L1 bytes of db loads of A carrying ka slices and of B carrying kb (the bias row not included). */
constexpr int64_t loads_bytes(const L1Problem &p, int64_t ka, int64_t kb, int64_t db)
{
    return db * (load_bytes(p, p.bm, ka) + load_bytes(p, p.bn, kb));
}

/* CANN's per-load slice cap of the non-priority matrix (MIN_MTE1_LOAD fractals; mL0 / nL0 / kL0 in fractals). */
constexpr int64_t mte1_cap(const L1Problem &p, bool forA)
{
    const int64_t mL0 = cdiv_(p.bm, 16), nL0 = cdiv_(p.bn, 16), kL0 = std::max<int64_t>(1, p.bk * p.isz / 32);
    const int64_t loop = 32 / ((nL0 == 1 ? 1 : kL0) + (kL0 == 1 ? 1 : mL0));
    const int64_t rows = forA ? mL0 : nL0;
    return std::max<int64_t>(loop, (cdiv_(32, rows) + kL0 - 1) / kL0);
}

/* The larger of ka, kb cut until the smaller divides it and it divides K's slices (or equals the smaller). */
constexpr void make_multiple(int64_t kTiles, int64_t &big, int64_t small)
{
    if (big > small && big % small)
        while (big > small && (big % small || kTiles % big))
            big--;
}

constexpr L1Steps l1_steps(const L1Problem &p)
{
    const int64_t kTiles = cdiv_(p.k, p.bk), room = p.l1 - p.reserved;
    if (loads_bytes(p, kTiles, kTiles, 2) <= room)
        return {(int32_t)kTiles, (int32_t)kTiles, 2};
    const int64_t db = loads_bytes(p, 1, 1, 2) <= room ? 2 : 1;
    if (loads_bytes(p, 1, 1, db) > room)
        return {0, 0, 0};
    int64_t ka = 1, kb = 1;
    if (p.aTrans && !p.bTrans) { /* equal counts */
        int64_t s = 1;
        while (s < kTiles && loads_bytes(p, s + 1, s + 1, db) <= room)
            s++;
        s = std::min<int64_t>(s, std::max<int64_t>(mte1_cap(p, true), mte1_cap(p, false)));
        ka = kb = nearest_factor(kTiles, s);
    } else {
        const bool aFirst = !p.bTrans || (!p.aTrans && p.bm > p.bn);
        const int64_t pRows = aFirst ? p.bm : p.bn, oRows = aFirst ? p.bn : p.bm;
        int64_t sp = 1, so = 1;
        while (sp < kTiles && db * (load_bytes(p, pRows, sp + 1) + load_bytes(p, oRows, 1)) <= room)
            sp++;
        sp = nearest_factor(kTiles, sp);
        while (so < kTiles && db * (load_bytes(p, pRows, sp) + load_bytes(p, oRows, so + 1)) <= room)
            so++;
        so = nearest_factor(kTiles, std::min<int64_t>(so, mte1_cap(p, !aFirst)));
        ka = aFirst ? sp : so;
        kb = aFirst ? so : sp;
    }
    make_multiple(kTiles, ka, kb);
    make_multiple(kTiles, kb, ka);
    return {(int32_t)ka, (int32_t)kb, (int32_t)db};
}

/* The step of one matrix's loads rounded down so that a load's K bytes are a multiple of 512 (over 512)
 * or 256 (over 256) when a slice divides that size (UpdateStepK). */
constexpr int64_t align_step(const L1Problem &p, int64_t s)
{
    const int64_t slice = p.bk * p.isz;
    if (s * p.bk >= p.k)
        return s;
    for (int64_t unit = 512; unit >= 256; unit -= 256)
        if (s * slice > unit) {
            if (unit % slice == 0)
                while (s > 1 && (s * slice) % unit)
                    s--;
            return s;
        }
    return s;
}

/* The multi-core M x N split's loads (CalcL1Tiling): A and B each half of L1 in base tiles; {0, 0, 0}
 * when a half does not hold one slice. */
constexpr L1Steps l1_steps_split_mn(const L1Problem &p)
{
    int64_t da = p.l1 / 2 / p.bm / p.bk / p.isz, dbb = (p.l1 + 256) / 2 / p.bn / p.bk / p.isz;
    if (da * load_bytes(p, p.bm, 1) + dbb * load_bytes(p, p.bn, 1) > p.l1 - p.reserved) {
        if (cdiv_(p.bm, 16) <= cdiv_(p.bn, 16))
            da /= 2;
        else
            dbb /= 2;
    }
    int64_t ka = align_step(p, da / 2), kb = align_step(p, dbb / 2);
    if (ka <= 0 || kb <= 0)
        return {0, 0, 0};
    if (ka >= kb)
        ka = ka / kb * kb;
    else
        kb = kb / ka * ka;
    return {(int32_t)ka, (int32_t)kb, 2};
}

} // namespace tiling
} // namespace dvac

#endif
