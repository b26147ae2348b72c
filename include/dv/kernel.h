/* dv/kernel.h - a kernel as the model sees it: a header (name, kind, blocks, GM arguments)
 * and one instruction stream per block (three per block for a 910B mix kernel).
 * Text traces (dv/trace.h) implement it; so can C kernels. */
#ifndef DV_KERNEL_H
#define DV_KERNEL_H

#include <stdint.h>

#include "dv/error.h"
#include "dv/isa.h"

/* Device address of a run's first GM argument; arguments follow in order, each DV_GM_ALIGN-byte
 * aligned (the layout of dv_sim_gm_setup, the AscendCL allocator and the operators' size checks). */
#define DV_GM_BASE 0x100000000ull
#define DV_GM_ALIGN 512u

#ifdef __cplusplus
extern "C" {
#endif

typedef enum dv_kind { DV_KIND_VECTOR, DV_KIND_CUBE, DV_KIND_MIX } dv_kind_t;

/* Sub-streams of a block: a vector or cube kernel has only DV_SUB_MAIN; a mix kernel on a split
 * chip has DV_SUB_AIC and DV_SUB_AIV0 .. AIV0 + aiv_per_core - 1. */
enum { DV_SUB_MAIN = 0, DV_SUB_AIC = 0, DV_SUB_AIV0 = 1, DV_SUB_MAX = 5 };

typedef enum dv_arg_dir { DV_ARG_IN, DV_ARG_OUT, DV_ARG_INOUT } dv_arg_dir_t;
typedef enum dv_arg_init { DV_INIT_ZERO, DV_INIT_RANDOM, DV_INIT_FILE } dv_arg_init_t;
/* How the shared L2 treats an argument's GM accesses (the hardware's per-tensor cache mode, Ascend C
 * GlobalTensor::SetL2CacheHint): normal, or disable (its lines are not allocated in L2). */
typedef enum dv_l2_mode { DV_L2_NORMAL, DV_L2_DISABLE } dv_l2_mode_t;
/* The hardware's alias of a GM address in mode disable: the address with this bit set (device addresses stay
 * below it).  A launch through the AscendCL shim may pass such a pointer: the argument is the allocation's
 * memory with l2 = DV_L2_DISABLE; the model carries each argument's mode on its address the same way. */
#define DV_GM_L2_DISABLE_BIT 60

#define DV_NAME_MAX 64

typedef struct dv_arg {
    char name[DV_NAME_MAX];
    uint64_t bytes;
    dv_dtype_t dtype;  /* element type, used by random initialisation */
    dv_arg_dir_t dir;
    dv_arg_init_t init;
    uint64_t seed;     /* DV_INIT_RANDOM */
    double lo, hi;     /* DV_INIT_RANDOM range of floats [lo, hi); lo == hi: the default [-1, 1) */
    char path[256];    /* DV_INIT_FILE */
    dv_l2_mode_t l2;   /* L2 cache mode of its accesses (zero-initialised args are DV_L2_NORMAL) */
    uint32_t line;     /* the trace line that declares it, for messages; 0: not from a trace */
} dv_arg_t;

typedef struct dv_kernel_info {
    char name[DV_NAME_MAX];
    dv_kind_t kind;
    uint32_t blocks;
    uint32_t subs;     /* streams per block: 1, or 1 + aiv count for mix */
    uint32_t nargs;
    dv_arg_t *args;
} dv_kernel_info_t;

/* One block's instruction stream, read in program order. */
typedef struct dv_stream dv_stream_t;
struct dv_stream {
    /* Fill *out with the next instruction: returns 1, 0 at the end, or a negative status (err filled,
     * with the source location). */
    int (*next)(dv_stream_t *s, dv_insn_t *out, dv_error_t *err);
    void (*close)(dv_stream_t *s);
    /* Optional (NULL for traces): the value an ld_ub of this stream read, given when the scalar unit
     * issues it and before the model asks for the next instruction (n bytes; zeros without data). */
    void (*loaded)(dv_stream_t *s, const uint8_t *bytes, unsigned n);
    const char *source; /* file name for messages, or a kernel name */
};

typedef struct dv_kernel dv_kernel_t;
struct dv_kernel {
    dv_kernel_info_t info;
    /* Open block `block`, sub-stream `sub`.  Several streams may be open at once. */
    int (*open)(dv_kernel_t *k, uint32_t block, uint32_t sub, dv_stream_t **out, dv_error_t *err);
    void *impl;
};

static inline const char *dv_kind_name(dv_kind_t k)
{
    return k == DV_KIND_VECTOR ? "vector" : k == DV_KIND_CUBE ? "cube" : "mix";
}

#ifdef __cplusplus
}
#endif
#endif
