/* dv/model.h - the C API of the SystemC model (model/ is the only C++ in the project).
 *
 * The model only counts.  Ratios, bandwidths and occupancy percentages are derived by the report
 * (sim/report.c).  All times are in cycles of the profile's clock, relative to the kernel launch. */
#ifndef DV_MODEL_H
#define DV_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "dv/error.h"
#include "dv/config.h"
#include "dv/isa.h"
#include "dv/kernel.h"
#include "dv/topology.h" /* dv_core_type_t */

#ifdef __cplusplus
extern "C" {
#endif


/* GM contents of a kernel's arguments.  data[i] may be NULL (timing-only run); addr[i] is the
 * device address used for L2 indexing (caller-chosen, e.g. by the allocator). */
typedef struct dv_gm {
    uint32_t nargs;
    uint8_t **data;
    uint64_t *bytes;
    uint64_t *addr;
} dv_gm_t;

/* Slices of a run's time in a buffer's occupancy series: slice i covers cycles
 * [i * T / DV_OCC_SLICES, (i + 1) * T / DV_OCC_SLICES) after the launch, T = dv_counters_t.cycles. */
#define DV_OCC_SLICES 64

/* Occupancy of one buffer: bytes holding data that is still to be read. */
typedef struct dv_buf_counters {
    uint64_t capacity;     /* bytes */
    uint64_t peak_bytes;   /* largest occupancy at any cycle (docs/MODEL.md) */
    double byte_cycles;    /* integral of occupancy over the core's active time */
    /* mean occupancy in bytes over each slice of the run: sum of series[i] * T / DV_OCC_SLICES =
     * byte_cycles, each <= peak_bytes; exact up to model/Occupancy.h's kMaxKnots changes (docs/REPORT.md) */
    double series[DV_OCC_SLICES];
} dv_buf_counters_t;

/* Stall causes (dv/stall.def): why a pipe idles (IDLE) or is held without working (HELD). */
typedef enum dv_stall {
#define DV_STALL(id, name, kind, pipe, desc) DV_STALL_##id,
#include "dv/stall.def"
    DV_STALL_COUNT
} dv_stall_t;

typedef enum dv_stall_kind { DV_STALL_KIND_IDLE, DV_STALL_KIND_HELD } dv_stall_kind_t;

/* One row of dv/stall.def: name as the report spells it, kind, the pipe it names (-1: none). */
typedef struct dv_stall_spec {
    const char *name;
    dv_stall_kind_t kind;
    int pipe;
    const char *description;
} dv_stall_spec_t;

/* The row of cause s, or NULL when s is out of range. */
static inline const dv_stall_spec_t *dv_stall_spec(dv_stall_t s)
{
    static const dv_stall_spec_t specs[] = {
#define DV_STALL(id, name, kind, pipe, desc) {name, DV_STALL_KIND_##kind, pipe, desc},
#include "dv/stall.def"
    };
    return (unsigned)s < (unsigned)DV_STALL_COUNT ? &specs[s] : (const dv_stall_spec_t *)0;
}

/* The critical path's rows are indexed by opcode 0 .. DV_OP_COUNT - 1 and two pseudo-opcodes: a
 * block's start overhead (chip.block_start_cycles) and the scalar unit issuing instructions
 * (scalar.issue_cycles each), both on pipe S. */
#define DV_CRIT_BLOCK_START DV_OP_COUNT
#define DV_CRIT_ISSUE (DV_OP_COUNT + 1)
#define DV_CRIT_OPS (DV_OP_COUNT + 2)

typedef struct dv_core_counters {
    char name[16];                         /* "core0", "aic3", "aiv7" */
    dv_core_type_t type;
    uint64_t blocks;                       /* blocks (or mix sub-streams) run */
    uint64_t first_cycle, last_cycle;      /* active window; cycles = last - first */
    uint64_t instructions;
    uint64_t pipe_busy[DV_PIPE_COUNT];     /* union of execution intervals */
    uint64_t pipe_insns[DV_PIPE_COUNT];
    uint64_t stall_queue_full_cycles;      /* scalar unit waiting for a full pipe queue */
    uint64_t stall_flag_cycles;            /* pipe heads and the scalar unit waiting on wait_flag / barriers */
    uint64_t stall_cross_cycles;           /* pipe heads and the scalar unit waiting on cross-core flags */
    uint64_t pipe_wait_cycles[DV_PIPE_COUNT]; /* the same waits by pipe (S: the scalar unit, queue full included) */
    uint64_t bank_conflict_cycles;
    uint64_t gm_read_bytes, gm_write_bytes;
    dv_buf_counters_t buf[DV_SPACE_COUNT]; /* index DV_SPACE_GM unused */
    /* Stall attribution (docs/MODEL.md): stall[p][c] cycles of pipe p charged to cause c.  For a
     * pipe the core owns, the IDLE causes add up to last_cycle - first_cycle - pipe_busy[p]
     * exactly; HELD causes are cycles of pipe_busy[p].  All 0 for a pipe the core does not own. */
    uint64_t stall[DV_PIPE_COUNT][DV_STALL_COUNT];
    uint64_t crit_cycles;                  /* cycles of the kernel's critical path spent on this core */
} dv_core_counters_t;

typedef enum dv_hazard_kind { DV_HAZ_RAW, DV_HAZ_WAR, DV_HAZ_WAW } dv_hazard_kind_t;

/* An unsynchronised cross-pipe access pair on overlapping bytes. */
typedef struct dv_hazard {
    uint32_t core, block, sub;
    dv_hazard_kind_t kind;
    uint8_t pipe_first, pipe_second;     /* earlier access, later access */
    uint64_t insn_first, insn_second;    /* 0-based index in the block's stream */
    uint32_t line_first, line_second;    /* trace lines (0 when generated) */
    uint8_t space;
    uint16_t arg;                        /* GM argument when space is GM */
    uint64_t lo, hi;                     /* overlapping bytes [lo, hi) */
} dv_hazard_t;

#define DV_HAZARD_RECORDS 64

typedef struct dv_counters {
    uint64_t cycles;                     /* launch to the end of the last block */
    uint64_t instructions;
    uint32_t ncores;
    dv_core_counters_t *cores;           /* owned; free with dv_counters_free */
    uint64_t gm_read_bytes, gm_write_bytes;
    uint64_t l2_hits, l2_misses, l2_writebacks;
    uint64_t hbm_read_bytes, hbm_write_bytes;
    uint64_t hbm_same_address;           /* reads bypassing L2 that queued behind another core's at one address */
    uint64_t hazards;                    /* total found */
    bool hazards_capped;                 /* the checker stopped at dv_run_opts_t.max_hazards: there may be more */
    uint32_t nhazard_records;            /* the first DV_HAZARD_RECORDS */
    dv_hazard_t hazard[DV_HAZARD_RECORDS];
    uint64_t op_count[DV_OP_COUNT];      /* per-opcode instruction counts */
    /* Per opcode and the pipe that ran it (set_flag / wait_flag by their operands): instructions
     * and the cycles they kept their unit (docs/REPORT.md, --instr-csv). */
    uint64_t op_pipe_count[DV_OP_COUNT][DV_PIPE_COUNT];
    uint64_t op_pipe_cycles[DV_OP_COUNT][DV_PIPE_COUNT];
    /* The critical path (docs/MODEL.md): from the first block's start (chip.kernel_start_cycles)
     * to the end of the last block, crit_cycles = cycles - chip.kernel_start_cycles; its cycles and
     * steps by opcode (or DV_CRIT_BLOCK_START, DV_CRIT_ISSUE) and pipe add up to crit_cycles.  crit_end_core: the
     * core whose block ended last (the first of them), UINT32_MAX when no core ran a block. */
    uint64_t crit_cycles;
    uint32_t crit_end_core;
    uint64_t crit_op_cycles[DV_CRIT_OPS][DV_PIPE_COUNT];
    uint64_t crit_op_count[DV_CRIT_OPS][DV_PIPE_COUNT];
    uint64_t crit_peak_nodes;            /* host memory: the most path nodes alive at once (bounded, docs/MODEL.md) */
} dv_counters_t;

/* Called once per executed instruction when a timeline is wanted. */
typedef void (*dv_slice_fn)(void *ctx, uint32_t core, dv_pipe_t pipe, const dv_insn_t *insn, uint64_t start,
                            uint64_t end);

typedef struct dv_run_opts {
    bool data;        /* execute instructions on real data (false: --no-data, timing only) */
    bool hazards;     /* run the hazard checker */
    dv_slice_fn on_slice;
    void *slice_ctx;
    unsigned warm_up; /* runs of the kernel before the measured one, unmeasured and without slices, on the same
                       * model and GM data: the L2 is left as a profiler's replay finds it (--warm-up); after
                       * each the chip idles for chip.replay_gap_cycles, writing dirty L2 lines back */
    uint64_t max_hazards; /* the hazard checker stops once the run has found this many (0: never); a
                           * kernel that never synchronises finds millions, each a scan of the accesses
                           * still unordered (--max-hazards; DV_MAX_HAZARDS_DEFAULT) */
    bool series;          /* keep each buffer's occupancy over time (dv_buf_counters_t.series; default on);
                           * off, the series is all 0 and every other counter the same: for a caller that
                           * never reads it (dvsim's text report), which saves the change points' work */
} dv_run_opts_t;

#define DV_MAX_HAZARDS_DEFAULT 1000000u

void dv_run_opts_default(dv_run_opts_t *o);

/* A model: the chip of one profile, with its L2 contents and simulated time.  Any number of
 * models may exist in a process, of the same or of different profiles; each is independent of the
 * others (a run on one never changes another), and a new model starts at time 0 with a cold L2,
 * so its results equal those of a fresh process.  One thread at a time may call into the models
 * of a process, whichever they are (SystemC's current simulation context is process-wide). */
typedef struct dv_model dv_model_t;

/* Build the model of profile cfg (copied; cfg should have passed dv_config_validate).  *out is
 * NULL on error. */
int dv_model_create(const dv_config_t *cfg, dv_model_t **out, dv_error_t *err);
/* The same for a caller that runs one kernel (the dvsim driver): only the cores that a kernel of
 * info's kind and block count runs on are built, which saves most of a model's construction (a
 * fixed cost of every run) and changes no result; running a kernel that needs another core is an
 * error (DV_ERR_STATE). */
int dv_model_create_for(const dv_config_t *cfg, const dv_kernel_info_t *info, dv_model_t **out, dv_error_t *err);
/* The profile the model was built for. */
const dv_config_t *dv_model_config(const dv_model_t *m);
/* Run kernel k on model m.  gm must hold k->info.nargs arguments.  On error, nothing is reported
 * in *out (its contents are undefined), err says what and where, and the model stays usable.
 * Kernels on one model run one after another in simulated time, and the L2 keeps its contents
 * from one kernel to the next; the counters of each run are relative to its own launch. */
int dv_model_run(dv_model_t *m, dv_kernel_t *k, const dv_gm_t *gm, const dv_run_opts_t *opts, dv_counters_t *out,
                 dv_error_t *err);
/* Free the model and everything it holds (NULL is ignored). */
void dv_model_destroy(dv_model_t *m);

void dv_counters_free(dv_counters_t *c);

#ifdef __cplusplus
}
#endif
#endif
