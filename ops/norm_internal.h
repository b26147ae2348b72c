/* ops/norm_internal.h - what the two halves of the row-wise normalisation operators share, private
 * to them: the tiling the plan fills and the kernel reads, and the UB layout both size tiles by.
 * ops/norm.c holds the design notes, the UB layout, the plans, the reference and the descriptors;
 * ops/norm_kernel.c the kernel. */
#ifndef DV_OPS_NORM_INTERNAL_H
#define DV_OPS_NORM_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "dv/intmath.h"
#include "dv/ops.h"

enum norm_kind { NK_SOFTMAX, NK_LAYERNORM, NK_RMSNORM, NK_BATCHNORM };

enum { LANES = 64, REP_BYTES = 256, BLK = 32 };

/* The tiling passed to the kernel. */
typedef struct norm_tiling {
    uint32_t kind;
    dv_dtype_t dt;
    uint64_t rows, cols;    /* rows of cols elements (batchnorm: N*C planes of H*W) */
    uint64_t channels;      /* batchnorm: C (plane p has channel p % C); 0 otherwise */
    uint64_t seg;           /* elements per unit: cols, or the segment length of a split plane */
    uint64_t nseg;          /* units per row: 1, or the segments of a split batchnorm plane */
    uint64_t units;         /* rows * nseg */
    uint64_t tile_rows;     /* units per tile (1 when planes are split) */
    uint32_t depth;         /* buffers per queue: 2 with --double-buffer on */
    uint32_t nparams;       /* parameter vectors (gamma, beta, mean, var) */
    uint32_t a_x, a_y, a_p[4];
    uint32_t stats;         /* --stats on: layernorm outputs a_mean and a_rstd, rmsnorm a_rstd */
    uint32_t a_mean, a_rstd;
    double eps;
} norm_tiling_t;

/* UB use of one tile of R units: every buffer the kernel allocates, each rounded to the alignment. */
typedef struct norm_ub {
    uint64_t cp;            /* padded elements per unit in UB: a 32 B multiple in the dtype */
    uint64_t in, out;       /* one queue buffer (dtype); out is y, followed by 2 x st with --stats */
    uint64_t st;            /* --stats: the mean (then the rstd) of each row, laid out as in vals */
    uint64_t xf, tmp;       /* fp32 work tiles: the cast input (fp16 only) and the scratch */
    uint64_t q;             /* reduction results per row in vals, at most (0: no reductions) */
    uint64_t vals, bc;      /* per-row results and their vbrcb blocks */
    uint64_t par, stage;    /* per parameter vector: fp32 copy, fp16 staging (inside tmp) */
    uint64_t pbc;           /* batchnorm: per-channel blocks of the scale (and of the shift) */
    uint64_t total;
} norm_ub_t;

/* Results per row of a reduction in vals: the rows' 64-lane partials have a pitch of row_bytes; a
 * batched vcadd (vcmax: value/index pairs) needs a repeat stride <= 255 blocks, else one
 * instruction per row writes each result to its own 32 B slot. */
uint64_t dv_norm_red_q(uint64_t row_bytes, bool is_max);

/* The UB layout of a tile of R units at the UB alignment, rows cp elements apart (0: the unit
 * rounded up to 32 B, the operator's own kernel). */
void dv_norm_ub_layout(const norm_tiling_t *t, uint64_t R, uint64_t cp, uint64_t align, norm_ub_t *u);

/* The kernel of every block (ops/norm_kernel.c); params is the plan's norm_tiling_t. */
void dv_norm_kernel(dv_k_t *k, const void *params);

/* The tile code of all four operators for fused kernels (ops/norm_kernel.c). */
extern const dv_tile_ops_t dv_norm_tile_ops;

#endif
