/* ops/conv2d_internal.h - what the two halves of the conv2d operator share, private to them: the
 * tiling the plan fills and the kernel reads, and the tile geometry both use.  ops/conv2d.c holds
 * the parameters, the geometry, the plan and the reference (and the design notes); ops/conv2d_kernel.c
 * the kernel. */
#ifndef DV_OPS_CONV2D_INTERNAL_H
#define DV_OPS_CONV2D_INTERNAL_H

#include <stdint.h>

#include "dv/intmath.h"
#include "dv/ops.h"

enum {
    C0 = 16,               /* channels per NC1HWC0 group; side of a 16x16 fractal */
    FRAC = 512,            /* bytes of a 16x16 2-byte fractal */
    BLK = 32,              /* DMA / UB block */
    XF_P_CAP = 1024,       /* positions per transform unit, at most */
    UB_BUFS = 6,           /* UB buffers of one transform unit's size */
    UB_BIAS_BUFS = 2,      /* --bias: more of them (the fp32 rows of a unit) */
    BIAS_LANES = 64,       /* fp32 elements per vector repeat */
    AUTO_BM = 128,         /* --base-m auto, at most */
    AUTO_BN = 128,         /* --base-n auto, at most */
    ACK_WINDOW = 8,        /* AIC signals ahead of the AIVs' answers (< sync.cross_flag_max) */
    XF_READY = 0,          /* cross-core flag ids */
    XF_TO_AIC = 1,
    TILE_DONE = 2,
    TILE_ACK = 3
};

typedef struct conv_tiling {
    uint32_t n, cin, h, w, cout, kh, kw, stride, pad, dil;
    uint32_t oh, ow, c1, n1, kk; /* output size, channel groups of x and y, taps */
    uint32_t dtype;              /* dv_dtype_t */
    uint32_t bias, relu;         /* --bias on: b[cout] (fp32) added per output channel in UB; --relu on */
    uint32_t split;              /* 910B mix kernel */
    uint32_t depth;              /* buffers per queue */
    uint32_t bm, bn;             /* L0C tile */
    uint32_t mtiles, ntiles;
    uint32_t ck;                 /* channel groups per L1 load */
    uint32_t kl;                 /* K blocks (16 columns) per L0 load */
    uint32_t rmax;               /* input rows of the largest band */
    uint32_t p, pp;              /* positions per transform unit; slab pitch (elements) */
    uint32_t wcc;                /* input channels per weight-transform unit */
    uint32_t wreorder;           /* weight rows regrouped in UB (wcc a multiple of 16) */
    uint32_t aiv;                /* AIVs per group */
    uint64_t tasks;
    uint64_t l1_wofs, l1_bytes;  /* weight offset in an L1 buffer; buffer size */
    uint64_t l0a_bytes, l0b_bytes, l0c_bytes, ub_bytes;
    uint32_t arg_x, arg_w, arg_b, arg_y, arg_x5, arg_wf, arg_y5;
} conv_tiling_t;

/* ---------------------------------------------------------------- geometry (ops/conv2d.c) */

/* The input rows one tile of output positions reaches, as img2col sees them: `rows` rows of x
 * from ih_lo; output row oh_r is the band's row 0 (m_start counts from it); pad_t / pad_b are the
 * band's own zero rows (real padding, or rows outside the map) so that img2col's Ho covers every
 * output row of the tile. */
typedef struct conv_band {
    uint32_t ih_lo, rows, oh_r, pad_t, pad_b;
} conv_band_t;

/* The band of output positions [m0, m0 + mc). */
void dv_conv2d_band(const conv_tiling_t *t, uint64_t m0, uint64_t mc, conv_band_t *b);

/* Coupled cores: the positions [q0, q1) of x5hd the x transform of a band writes, widened to whole
 * 16-position tiles (32-B rows for the DMA). */
void dv_conv2d_band_positions(const conv_tiling_t *t, const conv_band_t *b, uint64_t *q0, uint64_t *q1);

/* One L0C tile: image n, output positions [m0, m0 + mc), output channels [co0, co0 + nc). */
typedef struct conv_task {
    uint32_t n, co0, nc, nq;
    uint64_t mt, m0, mc;
} conv_task_t;

/* Task i of the plan (tasks run n-major, then base-m tiles, then base-n tiles). */
void dv_conv2d_task(const conv_tiling_t *t, uint64_t i, conv_task_t *c);

/* The tasks [first, end) of block b of nb: a contiguous range. */
void dv_conv2d_block_tasks(const conv_tiling_t *t, uint32_t b, uint32_t nb, uint64_t *first, uint64_t *end);

/* ---------------------------------------------------------------- kernel (ops/conv2d_kernel.c) */

/* The kernel of every block and sub-core; params is the plan's conv_tiling_t. */
void dv_conv2d_kernel(dv_k_t *k, const void *params);

#endif
