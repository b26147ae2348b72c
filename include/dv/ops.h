/* dv/ops.h - the operator library: tiled kernels written with dv/kapi.h, each with named tiling
 * parameters, a plan step that checks them against the chip profile, and a plain-C reference.
 *
 * The operators are rows of ops/ops.def; `dvsim op --list` and docs/OPS.md are generated from the
 * descriptors below.  One operator = one file in ops/ that defines its dv_opdesc_t. */
#ifndef DV_OPS_H
#define DV_OPS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dv/error.h"
#include "dv/config.h"
#include "dv/kapi.h"
#include "dv/kernel.h"
#include "dv/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- parameters ---- */
typedef enum dv_oparam_type {
    DV_OPT_INT,   /* integer in [min, max]; "auto" (stored as 0) when the default is "auto" */
    DV_OPT_BOOL,  /* on | off (also true/false, 1/0); a bare flag (--b-transposed) means on */
    DV_OPT_DTYPE, /* fp16 | bf16 | fp32 | int8 | int16 | int32 | ... (the dtypes mask says which);
                   * "auto" (stored as DV_DT_AUTO) when the default is "auto" */
    DV_OPT_SHAPE, /* AxBxC... (1 to DV_SHAPE_MAX dims, each >= 1) */
    DV_OPT_TILE,  /* RxC */
    DV_OPT_FLOAT  /* a finite number (strtod syntax) in [min, max]; a min of DV_FLOAT_ABOVE_0 reads "> 0" */
} dv_oparam_type_t;

#define DV_SHAPE_MAX 6
#define DV_FLOAT_ABOVE_0 4.9406564584124654e-324 /* the least positive double: a FLOAT range open at 0 */
#define DV_DT_AUTO DV_DT_COUNT /* a DTYPE parameter left to the plan */

typedef struct dv_shape {
    int ndims;
    uint64_t d[DV_SHAPE_MAX];
} dv_shape_t;

typedef struct dv_oparam_spec {
    const char *name;     /* without the dashes: "tile-elems" */
    dv_oparam_type_t type;
    const char *def;      /* default, as typed on the command line ("auto" for INT: decided by the plan) */
    double min, max;      /* INT, FLOAT: the range; SHAPE/TILE: each dim in [min, max] (integers exact to 2^53) */
    uint32_t dtypes;      /* DTYPE: accepted DT_ mask */
    const char *desc;
} dv_oparam_spec_t;

typedef union dv_oparam_val {
    int64_t i;            /* INT (0 = auto), BOOL */
    double f;             /* FLOAT */
    dv_dtype_t dt;
    dv_shape_t shape;     /* SHAPE; TILE as two dims */
} dv_oparam_val_t;

#define DV_OP_MAX_PARAMS 24

/* Parameter values in the order of the operator's spec table. */
typedef struct dv_opvals {
    dv_oparam_val_t v[DV_OP_MAX_PARAMS];
    bool given[DV_OP_MAX_PARAMS];   /* set on the command line (else the default) */
} dv_opvals_t;

/* ---- a planned launch ---- */
#define DV_OP_MAX_ARGS 8
#define DV_OP_TILING_BYTES 1024

/* One parameter of the tiling a plan actually uses (the report's operator section lists them). */
#define DV_OP_MAX_TILING_ROWS 16
typedef struct dv_op_tiling_row {
    char key[32];                      /* the parameter as the command line spells it ("depth-a1") */
    char val[48];                      /* the value used, as the command line would spell it */
    char why[200];                     /* empty: as requested (given, or the automatic choice as documented);
                                        * else why it differs from the request: "auto 16 does not fit L1:
                                        * 786,432 > 524,288 B" */
} dv_op_tiling_row_t;

typedef struct dv_op_plan {
    dv_kernel_info_t info;             /* name, kind, blocks, args (info.args points at args) */
    dv_arg_t args[DV_OP_MAX_ARGS];
    uint64_t elems[DV_OP_MAX_ARGS];    /* logical elements of each argument (args[i].bytes may be padded) */
    unsigned char tiling[DV_OP_TILING_BYTES]; /* the operator's tiling struct, passed to its kernel */
    size_t tiling_bytes;
    uint64_t flops;                    /* useful arithmetic (a multiply-add is 2), 0 when not meaningful */
    uint64_t bytes;                    /* compulsory GM traffic: inputs read once plus outputs written once */
    double tol_scale;                  /* multiplies the dtype tolerances of --check (1 unless the op says why) */
    uint32_t own_args;                 /* mask of DV_ARG_IN arguments the operator creates itself (weights,
                                        * statistics, parameter vectors): a graph node does not list them.
                                        * As a graph node, the node's inputs are the other DV_ARG_IN
                                        * arguments in order, its output is the first DV_ARG_OUT argument,
                                        * and any further output is a workspace private to the kernel */
    int ntiling_rows;                  /* the tiling used (dv_ops_tiling_row); 0: the operator lists none */
    dv_op_tiling_row_t tiling_rows[DV_OP_MAX_TILING_ROWS];
} dv_op_plan_t;

/* ---- graph binding: an operator as a node of an operator graph (dv/graph.h) ---- */
/* A tensor as a graph sees it. */
typedef struct dv_tensor_desc {
    dv_shape_t shape;
    dv_dtype_t dtype;
} dv_tensor_desc_t;

/* ---- per-tile work: how an operator joins a fused kernel (dv/fusion.h) ----
 * A fused kernel views every value of its group as a 2-D array [rows, cols] and walks it in tiles
 * of rows x cols elements held in UB, each row starting `pitch` elements after the previous one
 * (pitch: cols rounded up so that a row is whole 32-B blocks in every dtype of the group; the
 * elements between cols and pitch are scratch that is computed on and never stored).  An
 * operator's tile code reads its inputs' tiles and writes its output tile, in the tensors' own
 * dtypes, with exactly the vector instructions its own kernel issues for the same elements, so a
 * fused chain gives the bytes the unfused chain gives. */
#define DV_TILE_MAX_IN 4
#define DV_TILE_STATE_BYTES 512

typedef struct dv_tile {
    uint64_t rows, cols, pitch;        /* this tile */
    uint64_t row0, col0;               /* its first row and column in the [rows, cols] view */
    uint64_t in[DV_TILE_MAX_IN];       /* UB address of each tiled input's tile (rows x pitch) */
    uint64_t out;                      /* UB address of the output tile (rows x pitch) */
} dv_tile_t;

enum {
    DV_TILE_WHOLE_ROWS = 1u << 0,      /* reduces along rows: a tile holds whole rows (cols = the view's) */
    DV_TILE_VIEW = 1u << 1             /* the operator fixes the view (view()); else any view will do */
};

typedef struct dv_tile_ops {
    uint32_t flags;
    /* The [rows, cols] view of the output the tile code assumes (DV_TILE_VIEW). */
    void (*view)(const dv_op_plan_t *plan, uint64_t *rows, uint64_t *cols);
    /* UB bytes of the operator's own buffers (fp32 scratch, its parameter vectors) for tiles of at
     * most `rows` x `pitch` elements, each allocation rounded up to core.ub_align_bytes. */
    uint64_t (*ub_bytes)(const dv_op_plan_t *plan, const dv_config_t *cfg, uint64_t rows, uint64_t pitch);
    /* Once per block, before the first tile: allocate those buffers and load the operator's own
     * arguments (plan argument i is GM argument argmap[i] of the fused kernel), leaving what emit
     * needs in state (DV_TILE_STATE_BYTES).  The loads are complete on V when setup returns. */
    void (*setup)(dv_k_t *k, const dv_op_plan_t *plan, const uint32_t *argmap, uint64_t rows, uint64_t pitch,
                  void *state);
    /* The V-pipe work of one tile: the inputs are in UB, the output buffer is free. */
    void (*emit)(dv_k_t *k, const dv_op_plan_t *plan, const void *state, const dv_tile_t *tile);
} dv_tile_ops_t;

/* ---- cube operators with a vector epilogue (dv/fusion.h) ----
 * A cube operator that can hand its output tiles to a fused epilogue instead of writing them to
 * its output argument.  Its output is viewed as the matrix [rows, cols] of its plan. */
typedef struct dv_cube_sink {
    /* Split chips (AIC + AIVs): the AIC FixPipes tile j of its block into slot j % slots of the
     * block's part of GM argument ws_arg (slots x base-m x base-n elements of the output dtype per
     * block, a tile's rows base-n elements apart), then sets cross flag done_flag (mode 2); before
     * it writes a slot again it waits cross flag ack_flag, which the AIVs set (mode 2) once they
     * have read the slot.  At the end it waits the acknowledgements still pending. */
    uint32_t ws_arg, slots;
    int done_flag, ack_flag;
    /* Coupled cores: instead of moving a finished tile (in L0C at l0c, its rows rounded up to 16
     * = m_al) out itself, the operator calls chunk for each run of chunk_rows rows [r, r + rows)
     * of the tile at (m0, n0) with nt columns; chunk moves them out of L0C (V) and finishes them,
     * and must leave L0C readable by the cube's next tile only after its own reads (it does). */
    void (*chunk)(dv_k_t *k, const void *ctx, uint64_t l0c, uint64_t m_al, uint64_t r, uint64_t rows, uint64_t m0,
                  uint64_t n0, uint64_t nt);
    const void *ctx;
    uint64_t chunk_rows;
} dv_cube_sink_t;

typedef struct dv_cube_ops {
    /* Output tiles of block `block`: their number, and tile i's rows [m0, m0 + mt) and columns
     * [n0, n0 + nt) of the output matrix. */
    uint64_t (*tiles)(const dv_op_plan_t *plan, uint32_t block);
    void (*tile)(const dv_op_plan_t *plan, uint32_t block, uint64_t i, uint64_t *m0, uint64_t *mt, uint64_t *n0,
                 uint64_t *nt);
    /* The largest tile (base-m x base-n) and the output matrix [rows, cols]. */
    void (*shape)(const dv_op_plan_t *plan, uint64_t *bm, uint64_t *bn, uint64_t *rows, uint64_t *cols);
    /* The L0C -> UB move of a chunk on coupled cores (quantisation and ReLU as the plan says):
     * rows x nt of the tile at l0c (m_al rows) from row r into UB at ub, rows pitch elements apart. */
    void (*l0c_to_ub)(dv_k_t *k, const dv_op_plan_t *plan, uint64_t ub, uint64_t l0c, uint64_t m_al, uint64_t r,
                      uint64_t rows, uint64_t nt, uint64_t pitch);
    /* The block's cube work (the AIC sub-stream on a split chip, the whole core when coupled),
     * with plan argument i at GM argument argmap[i] and the tiles going to sink. */
    void (*run)(dv_k_t *k, const dv_op_plan_t *plan, const uint32_t *argmap, const dv_cube_sink_t *sink);
} dv_cube_ops_t;

typedef struct dv_opdesc dv_opdesc_t;
struct dv_opdesc {
    const char *name;
    const char *desc;
    const dv_oparam_spec_t *params;
    int nparams;
    /* Check the values against the profile, choose the tiling, describe the kernel's arguments.
     * Errors name the parameter and the limit. */
    int (*plan)(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                dv_error_t *err);
    dv_kernel_fn kernel;
    /* Fill the expected bytes of every DV_ARG_OUT / INOUT argument (expect[i], plan->args[i].bytes,
     * zeroed) from the inputs (in[i]; NULL for outputs). */
    int (*reference)(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err);
    /* As a graph node: check the node's input tensors (in[0..nin), the plan's DV_ARG_IN arguments
     * that are not own_args, in order), set the parameters they determine (shapes, dtype) in v, and
     * give the output tensor.  Errors say which input and what was expected.  NULL: the operator
     * cannot be a graph node. */
    int (*bind)(const dv_opdesc_t *op, const dv_tensor_desc_t *in, int nin, dv_opvals_t *v, dv_tensor_desc_t *out,
                dv_error_t *err);
    /* Its per-tile vector work, when it can join a fused vector kernel or a cube epilogue; NULL
     * when not. */
    const dv_tile_ops_t *tile;
    /* Its tiles for a fused epilogue, when it is a cube operator that can take one; NULL when not. */
    const dv_cube_ops_t *cube;
};

/* The operators, in ops/ops.def order (NULL-terminated). */
const dv_opdesc_t *const *dv_ops_all(void);
const dv_opdesc_t *dv_ops_find(const char *name);
/* Rows of ops/ops.def (dv_ops_all lists those linked in: the same number in a complete build). */
size_t dv_ops_table_rows(void);

/* Parse "--name value" pairs (argv[0..argc)) into vals; defaults for the rest.  Unknown names and
 * bad values are errors that name the parameter and its limit. */
int dv_ops_parse(const dv_opdesc_t *op, int argc, char **argv, dv_opvals_t *vals, dv_error_t *err);
/* Index of a parameter by name, -1 when absent. */
int dv_ops_param_index(const dv_opdesc_t *op, const char *name);
/* Print one operator's parameters (the --list format). */
void dv_ops_print_params(const dv_opdesc_t *op, FILE *out);
/* The range of an INT or FLOAT parameter as messages and docs print it: "[min, max]", or "(0, max]"
 * for a FLOAT whose min is DV_FLOAT_ABOVE_0. */
void dv_ops_format_range(const dv_oparam_spec_t *s, char *buf, size_t cap);
/* Format a value as the command line spells it; parsing the text gives the value back exactly
 * (FLOAT: the shortest %g form that round-trips, at most 17 digits). */
void dv_ops_format_val(const dv_oparam_spec_t *s, const dv_oparam_val_t *v, char *buf, size_t cap);

/* Plan: op->plan plus the common checks (arguments fit in HBM, tiling size). */
int dv_ops_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                dv_error_t *err);
/* The kernel of a plan, for dv_model_run or dvk_kernel_record. */
int dv_ops_kernel(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_op_plan_t *plan, dv_kernel_t **out,
                  dv_error_t *err);

/* ---- kernel helpers shared by operators ---- */
/* The s32 lane indices 0 .. n-1 at UB address ub (8 scalar stores, then vadds doublings), complete on
 * V when it returns (ops/random.c). */
void dv_ops_iota_s32(dv_k_t *k, uint64_t ub, uint64_t n);
/* The elements [*first, *last) of `elems` this block takes: whole units of `unit` elements, block b of
 * n getting units [units * b / n, units * (b + 1) / n) (the last block also the partial unit). */
void dv_ops_block_span(dv_k_t *k, uint64_t elems, uint64_t unit, uint64_t *first, uint64_t *last);
/* n rows of len bytes between GM argument `arg` (row i at byte off + i*stride) and UB (row i at
 * ub + i*pitch; pitch a multiple of 32 of at least len), to GM or from it.  Whole 32-B lengths and
 * gaps take the DMA form, others DataCopyPad; more rows than a burst count holds take several
 * instructions, and a gap wider than its field one row per instruction (ops/op.c). */
void dv_ops_rows_move(dv_k_t *k, bool to_gm, uint64_t ub, uint64_t pitch, uint32_t arg, uint64_t off, uint64_t stride,
                      uint64_t n, uint64_t len);

/* ---- checking ---- */
/* Tolerance of --check for one element type: |got - want| <= atol + rtol * |want| (floats);
 * integers compare exactly.  The table is in ops/check.c and docs/OPS.md. */
void dv_ops_tolerance(dv_dtype_t t, double *atol, double *rtol);

typedef struct dv_check_result {
    uint64_t compared, mismatches;
    double max_abs_err, max_rel_err;
    uint64_t first_bad;        /* element index of the first mismatch */
    double first_got, first_want;
    char arg[DV_NAME_MAX];     /* the argument of the first mismatch */
} dv_check_result_t;

/* Compare `elems` elements of type t: got against want, with the dtype tolerance times scale. */
void dv_ops_compare(dv_dtype_t t, uint64_t elems, const uint8_t *got, const uint8_t *want, double scale,
                    dv_check_result_t *r);

/* ---- helpers for operator code ---- */
/* Element i of a buffer of type t as a double, and the store with round-to-nearest-even (integers
 * saturate). */
double dv_ops_load(const uint8_t *p, dv_dtype_t t, uint64_t i);
void dv_ops_store(uint8_t *p, dv_dtype_t t, uint64_t i, double v);
/* Round v through type t (what storing and loading back gives). */
double dv_ops_round(dv_dtype_t t, double v);
/* Add an argument to a plan: elems elements of type t (bytes padded to whole 32 B blocks),
 * random inputs in [lo, hi) (lo == hi: the default range) or zeroed outputs. */
int dv_ops_add_arg(dv_op_plan_t *plan, const char *name, dv_dtype_t t, uint64_t elems, dv_arg_dir_t dir, double lo,
                   double hi);
/* DV_OK when one tensor of `elems` elements of `size` bytes fits hbm.capacity_bytes, else a --shape
 * error saying so. */
int dv_ops_check_hbm(const dv_config_t *cfg, uint64_t elems, unsigned size, dv_error_t *err);
/* The number of blocks for a --cores value of 0 ("auto"): every core of the kind. */
uint32_t dv_ops_cores(const dv_config_t *cfg, dv_kind_t kind);
/* The largest value of an instruction field (isa/fields.def), e.g. dv_ops_field_max(DV_FORM_DMA,
 * DV_FLD(DMA, nburst)): operators split their work at the limits the ISA table states. */
static inline uint64_t dv_ops_field_max(dv_form_t form, int field)
{
    return (uint64_t)dv_form_spec(form)->fields[field].max;
}
/* Elements of a shape, 0 on overflow. */
uint64_t dv_shape_elems(const dv_shape_t *s);
/* "1024x768" */
void dv_shape_format(const dv_shape_t *s, char *buf, size_t cap);
/* A dtype as the --dtype parameter spells it ("fp16", "int32"). */
const char *dv_ops_dtype_name(dv_dtype_t t);
/* The dtypes of a DT_ mask as messages list them: "fp16|bf16|fp32". */
void dv_ops_dtype_list(uint32_t mask, char *buf, size_t cap);
/* The bind of operators whose output has the shape and dtype of their inputs, which must all be
 * alike: sets "shape" and "dtype" (element-wise, softmax, layernorm, rmsnorm, batchnorm). */
int dv_ops_bind_same(const dv_opdesc_t *op, const dv_tensor_desc_t *in, int nin, dv_opvals_t *v,
                     dv_tensor_desc_t *out, dv_error_t *err);
/* Record one parameter of the tiling used: its value (printf format) and, when it differs from the
 * request, why (NULL or "": as requested).  Rows beyond DV_OP_MAX_TILING_ROWS are dropped (a
 * programmer mistake: assert). */
void dv_ops_tiling_row(dv_op_plan_t *plan, const char *key, const char *why, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* n with thousands separators ("1,179,648"), as fallback reasons print sizes; returns buf. */
const char *dv_ops_thousands(uint64_t n, char *buf, size_t cap);
/* Fail a plan with a message naming the parameter: "--NAME: ..." */
int dv_ops_param_error(dv_error_t *err, const char *param, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif
#endif
