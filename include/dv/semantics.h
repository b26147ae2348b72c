/* dv/semantics.h - what each instruction does to data, and which bytes it touches.
 * Pure C, no timing: the model calls dv_exec at the simulated time an instruction executes.
 * Implemented by isa/semantics_*.c; docs/SEMANTICS.md is the contract. */
#ifndef DV_SEMANTICS_H
#define DV_SEMANTICS_H

#include <stdbool.h>
#include <stdint.h>

#include "dv/error.h"
#include "dv/isa.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Vector mask state, captured when a V instruction is issued (set by set_vector_mask /
 * set_mask_count / set_mask_norm, which run on the scalar unit). */
typedef struct dv_vstate {
    bool count_mode;
    uint64_t hi, lo;
    /* set_atomic: how DMA and FixPipe writes to GM combine with what GM holds (DV_ATOMIC_*), in
     * atomic_dtype elements */
    uint8_t atomic, atomic_dtype;
    /* set_mov_pad_val: what copy_gm_to_ubuf_align pads with (its low esize bytes) */
    uint64_t pad_val;
} dv_vstate_t;

enum { DV_ATOMIC_NONE = 0, DV_ATOMIC_ADD = 1, DV_ATOMIC_MAX = 2, DV_ATOMIC_MIN = 3 };

/* The reset state: normal mode, all bits set, no atomic. */
void dv_vstate_reset(dv_vstate_t *vs);

/* The memories one core sees.  buf[s]/size[s] for local spaces (NULL buffer: timing-only run);
 * gm[a]/gm_size[a] for the kernel's GM arguments (gm[a] NULL: timing only). */
typedef struct dv_mem {
    uint8_t *buf[DV_SPACE_COUNT];
    uint64_t size[DV_SPACE_COUNT];
    uint32_t ngm;
    uint8_t *const *gm;
    const uint64_t *gm_size;
} dv_mem_t;

/* A byte range an instruction reads or writes: [lo, hi) in `space` (and GM argument `arg`). */
typedef struct dv_range {
    uint8_t space;
    uint8_t write;
    uint16_t arg;
    uint64_t lo, hi;
} dv_range_t;

#define DV_MAX_RANGES 4

/* The footprint (bounding range per operand) of an instruction; returns the count (0 for
 * instructions without memory operands).  Counts repeats and masks as they will execute. */
int dv_footprint(const dv_insn_t *in, const dv_vstate_t *vs, dv_range_t out[DV_MAX_RANGES]);

/* One UB operand of a vector instruction, for bank-conflict timing and for dv_exec. */
typedef struct dv_vop {
    uint64_t base;        /* byte offset in UB */
    uint64_t blk_bytes;   /* bytes per datablock of this operand */
    uint64_t blk_stride;  /* bytes between datablocks of one repeat */
    uint64_t rep_stride;  /* bytes between repeats */
    bool write;
} dv_vop_t;

/* Vector-instruction geometry: effective repeat count (count mode derives it from the mask),
 * elements per repeat, and its UB operands (returns the operand count, 0 for non-UB-strided ops). */
typedef struct dv_vgeom {
    uint32_t repeats;
    uint32_t elems_per_repeat;
    uint64_t elems;        /* elements processed in total (mask applied), for statistics */
    int nops;
    dv_vop_t ops[4];
} dv_vgeom_t;
int dv_vec_geometry(const dv_insn_t *in, const dv_vstate_t *vs, dv_vgeom_t *g);

/* dv_footprint's ranges (its count returned) and dv_vec_geometry's g at once, the instruction decoded
 * once: what a V-pipe instruction needs at issue. */
int dv_vec_footprint(const dv_insn_t *in, const dv_vstate_t *vs, dv_range_t out[DV_MAX_RANGES], dv_vgeom_t *g);

/* Bytes moved by a DMA-like instruction (DMA, ND2NZ, LOAD2D, IMG2COL, FIXPIPE forms): the bytes
 * read from its source and written to its destination, and the number of contiguous GM bursts. */
typedef struct dv_xfer {
    uint64_t src_bytes, dst_bytes;
    uint64_t bursts;       /* contiguous runs on the GM side (1 per burst / row) */
    uint64_t burst_bytes;  /* bytes per GM run */
    uint64_t gm_lo;        /* first GM byte offset (argument-relative) */
    uint64_t gm_stride;    /* bytes from one GM run to the next inside a group */
    uint64_t group;        /* runs per group (ND2NZ: rows per matrix); 0 means all runs */
    uint64_t group_stride; /* bytes from one group's first run to the next group's */
} dv_xfer_t;
/* Argument-relative GM offset of run i of a transfer. */
static inline uint64_t dv_xfer_run_offset(const dv_xfer_t *x, uint64_t i)
{
    if (x->group == 0)
        return x->gm_lo + i * x->gm_stride;
    return x->gm_lo + (i / x->group) * x->group_stride + (i % x->group) * x->gm_stride;
}
int dv_xfer_shape(const dv_insn_t *in, dv_xfer_t *x);

/* dv_footprint's ranges (its count returned) and dv_xfer_shape's x at once, a DMA or LOAD2D decoded
 * once: what an instruction for a DMA engine needs at issue (its shape depends on nothing but in). */
int dv_xfer_footprint(const dv_insn_t *in, const dv_vstate_t *vs, dv_range_t out[DV_MAX_RANGES], dv_xfer_t *x);

/* Execute one instruction on the memories (no-op for sync/scalar instructions).  The footprint
 * must already have been checked against the buffers; this checks only what data can violate. */
int dv_exec(const dv_insn_t *in, const dv_vstate_t *vs, dv_mem_t *m, dv_error_t *err);

/* The number of elements a vreducev2 keeps (what it leaves in RSVD_CNT): its pattern bits, read from
 * ub (the core's UB; NULL in a timing-only run, where a pattern tensor counts as all zero). */
uint64_t dv_rsvd_count(const dv_insn_t *in, const dv_vstate_t *vs, const uint8_t *ub);

/* The cube's product, as dv_exec's mmad and the operator references compute it: A row-major m x k, B
 * packed k-major (b[kk * np + j], np a multiple of DV_DOT_LANES, zeros past the last column), acc
 * m x np row-major (in: the starting values; out: the sums); acc[i][j] += a[i][kk] * b[kk][j] for
 * kk = 0 .. k-1 in that order, each product and sum rounded to float (uint32 wrapping for the
 * integer form).  Columns run side by side in vector lanes, each one's arithmetic exactly a scalar
 * loop's; b and acc are DV_DOT_ALIGN-byte aligned (dv_dot_alloc). */
enum { DV_DOT_LANES = 8, DV_DOT_ALIGN = 32 };
/* bytes (and up to DV_DOT_ALIGN more) aligned for dv_dot_*: free() them; NULL when out of memory. */
void *dv_dot_alloc(uint64_t bytes);
void dv_dot_f32(const float *a, const float *b, uint64_t m, uint64_t k, uint64_t np, float *acc);
void dv_dot_u32(const uint32_t *a, const uint32_t *b, uint64_t m, uint64_t k, uint64_t np, uint32_t *acc);

/* Number conversions used by dv_exec and by tests' plain-C references. */
float dv_f16_to_f32(uint16_t h);
uint16_t dv_f32_to_f16(float f);       /* round to nearest even */
float dv_bf16_to_f32(uint16_t h);
uint16_t dv_f32_to_bf16(float f);      /* round to nearest even */

#ifdef __cplusplus
}
#endif
#endif
