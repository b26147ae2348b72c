/* lib/matmul/batch.h - where the matrices of a BatchMatmul are (Matmul::IterateBatch, lib/matmul_intf.h), from
 * the batch layout's fields of TCubeTiling (CANN's ALayoutInfoB/S/N/G/D, BLayoutInfo*, CLayoutInfoB/S1/N/G/S2,
 * set on the host by SetALayout / SetBLayout / SetCLayout or SetBatchInfoForNormal; asc-devkit
 * impl/adv_api/tiling/matmul/matmul_tiling_base.cpp, docs "IterateBatch").
 *
 *   NORMAL (BMNK): the batch's matrices one after the other: A m x k, B k x n (given transposed: n x k), C m x n;
 *                  a nonzero matrixStrideA / B / C replaces the matrix size as the distance between them.
 *   BSNGD:         [b, s, n, g, d] with one matrix per (n, g): matrices d apart, rows n * g * d apart (C: s2
 *                  apart, rows n * g * s2 apart; the bias [b, n, g, s2]: s2 apart).
 * Distances and pitches in elements. */
#ifndef DVSIM_LIB_MATMUL_BATCH_H
#define DVSIM_LIB_MATMUL_BATCH_H

#include <cstdint>

namespace dvac {
namespace mm {

struct BatchGeometry {
    uint64_t strideA, strideB, strideC, strideBias; /* from one batch's matrix to the next */
    uint32_t pitchA, pitchB, pitchC;                /* row pitches */
};

/* m x n x k: one product (NORMAL: the layout's m, n, k, else the core's part); ta, tb: A, B transposed. */
inline BatchGeometry batch_geometry(const TCubeTiling &t, bool bsngd, bool ta, bool tb, uint32_t m, uint32_t n,
                                    uint32_t k, uint32_t strideA, uint32_t strideB, uint32_t strideC)
{
    BatchGeometry g{};
    if (bsngd) {
        g.strideA = (uint64_t)t.ALayoutInfoD;
        g.strideB = (uint64_t)t.BLayoutInfoD;
        g.strideC = (uint64_t)t.CLayoutInfoS2;
        g.strideBias = (uint64_t)t.CLayoutInfoS2;
        g.pitchA = (uint32_t)(t.ALayoutInfoN * t.ALayoutInfoG * t.ALayoutInfoD);
        g.pitchB = (uint32_t)(t.BLayoutInfoN * t.BLayoutInfoG * t.BLayoutInfoD);
        g.pitchC = (uint32_t)(t.CLayoutInfoN * t.CLayoutInfoG * t.CLayoutInfoS2);
    } else {
        if (t.ALayoutInfoS > 0 && t.ALayoutInfoD > 0 && t.BLayoutInfoS > 0) { /* SetBatchInfoForNormal's m, n, k */
            m = (uint32_t)t.ALayoutInfoS;
            k = (uint32_t)t.ALayoutInfoD;
            n = (uint32_t)t.BLayoutInfoS;
        }
        g.strideA = strideA ? strideA : (uint64_t)m * k;
        g.strideB = strideB ? strideB : (uint64_t)k * n;
        g.strideC = strideC ? strideC : (uint64_t)m * n;
        g.strideBias = n;
        g.pitchA = ta ? m : k;
        g.pitchB = tb ? k : n;
        g.pitchC = n;
    }
    return g;
}

} // namespace mm
} // namespace dvac

#endif
