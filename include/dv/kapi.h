/* dv/kapi.h - write Da Vinci kernels in C.
 *
 * A kernel is a C function run once per block (once per sub-stream of a block for a 910B mix
 * kernel) on the host.  Its control flow and address arithmetic execute natively; every call of an
 * instruction function below appends one instruction to that block's stream, which the model reads
 * lazily (the function runs as a coroutine, so a block of any length needs O(1) memory).
 *
 * Instruction functions: one per row of isa/isa.def, named dvk_<mnemonic>, with the operands of
 * its form in isa/fields.def order (generated into dv/kapi_insn.h; see docs/KERNEL.md):
 *     dvk_copy_gm_to_ubuf(k, dst, src, nburst, len, src_gap, dst_gap);
 *     dvk_vadd(k, dst, src0, src1, DV_DT_F16, repeat, 1, 1, 1, 8, 8, 8);
 * Addresses are dv/isa.h addresses: dvk_gm() for GM arguments, dvk_alloc() / queues for local
 * buffers.
 *
 * Scalar cost rule (docs/KERNEL.md): every emitted instruction is issued by the scalar unit at
 * scalar.issue_cycles, as in a trace; work that emits no instruction of its own (buffer allocation,
 * queue bookkeeping) charges scalar.bookkeeping_cycles per call; anything else a kernel wants
 * charged it states with dvk_scalar(k, cycles), the `scalar` instruction.  Charges are emitted as `scalar` instructions, so a
 * recorded trace replays with the same timing.
 *
 * Errors: a kernel that breaks a rule (a buffer overflowing its space, an exhausted event id, an
 * instruction whose operands fail the ISA checks) stops at that call; the run fails with a message
 * naming the kernel, the block and the instruction index.  dvk_fail() does the same for the
 * kernel's own checks.  None of these functions return after a failure. */
#ifndef DV_KAPI_H
#define DV_KAPI_H

#include <stdbool.h>
#include <stdint.h>

#include "dv/error.h"
#include "dv/config.h"
#include "dv/isa.h"
#include "dv/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One block's (sub-)stream being generated. */
typedef struct dv_k dv_k_t;

/* The kernel body.  `params` is the pointer given to dvk_kernel_create (the tiling). */
typedef void (*dv_kernel_fn)(dv_k_t *k, const void *params);

/* ---- where the block runs ---- */
uint32_t dvk_block_idx(const dv_k_t *k);            /* GetBlockIdx */
uint32_t dvk_block_num(const dv_k_t *k);            /* GetBlockNum: the launch's block count */
uint32_t dvk_sub(const dv_k_t *k);                  /* DV_SUB_MAIN, or DV_SUB_AIC / DV_SUB_AIV0 + i */
bool dvk_is_aic(const dv_k_t *k);                   /* runs cube work: AIC sub-stream, cube kernel, coupled core */
bool dvk_is_aiv(const dv_k_t *k);                   /* runs vector work: AIV sub-stream, vector kernel, coupled core */
const dv_config_t *dvk_config(const dv_k_t *k);     /* the chip profile */
dv_kind_t dvk_kind(const dv_k_t *k);                /* the launch's kernel kind */
bool dvk_has_pipe(const dv_k_t *k, dv_pipe_t p);    /* the stream's core has pipe p */
bool dvk_has_space(const dv_k_t *k, dv_space_t s);  /* the stream's core has local buffer s */
uint64_t dvk_space_bytes(const dv_k_t *k, dv_space_t s); /* size of local buffer s on the profile */
uint64_t dvk_space_align(const dv_k_t *k, dv_space_t s); /* its operand alignment */
const char *dvk_space_name(dv_space_t s);           /* "ub", "l1", ... */
const char *dvk_space_key(dv_space_t s);            /* its size key in the profile, e.g. core.ub_size_bytes */
/* The stream whose kernel function is running on the calling thread (NULL outside a kernel): for
 * front ends whose kernels do not pass the stream along (Ascend C). */
dv_k_t *dvk_current(void);
/* Source line recorded in the instructions emitted from now on (instruction `line`, shown by the
 * hot-spot table and the model's messages); 0 = none. */
void dvk_set_line(dv_k_t *k, uint32_t line);
/* True while dvk_kernel_probe generates the stream: nothing will run, so side effects a kernel
 * has on the host (printing) should be skipped. */
bool dvk_probing(const dv_k_t *k);

/* ---- memory ---- */
/* Address of byte `offset` of GM argument `arg` (fails the kernel when arg does not exist). */
uint64_t dvk_gm(dv_k_t *k, uint32_t arg, uint64_t offset);
/* Bytes of GM argument `arg` (fails the kernel when arg does not exist). */
uint64_t dvk_gm_bytes(dv_k_t *k, uint32_t arg);
/* Allocate `bytes` (rounded up to the space's alignment) of a local buffer (UB, L1, L0A, L0B,
 * L0C, BT, FB) for the rest of the block; fails the kernel when the space is full. */
uint64_t dvk_alloc(dv_k_t *k, dv_space_t space, uint64_t bytes);
/* Bytes still free in a local space. */
uint64_t dvk_free_bytes(const dv_k_t *k, dv_space_t space);

/* ---- errors ---- */
void dvk_fail(dv_k_t *k, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

/* ---- synchronisation ---- */
/* A free event id of the pipe pair src -> dst for the rest of the block (fails when exhausted). */
int dvk_event_alloc(dv_k_t *k, dv_pipe_t src, dv_pipe_t dst);
/* Give an id of dvk_event_alloc back (fails the kernel when it is not taken). */
void dvk_event_free(dv_k_t *k, dv_pipe_t src, dv_pipe_t dst, int id);
/* Charge one scalar.bookkeeping_cycles (rule 2 of the scalar cost rule) for a front end's own
 * bookkeeping (buffer and queue management done outside dvk_alloc / dvk_que_*). */
void dvk_bookkeeping(dv_k_t *k);
/* Scalar cost rule 4: a translation unit dvcc built registers (on) and unregisters its counter of
 * the user's machine instructions run (ascendc/native.h); the stream running takes the counts before
 * each instruction it emits and charges each scalar.alu_cycles. */
void dvk_native_register(uint64_t *ops, bool on);
/* The scalar unit's read of one UB element (Ascend C LocalTensor::GetValue): emits ld_ub and returns
 * the element's bits as the model's scalar unit read them when it issued the load, i.e. after
 * whatever the kernel synchronised before it (zero without data, in dvsim record and while probed).
 * The kernel function waits for the model meanwhile, so each call costs a hand-off. */
uint64_t dvk_load_ub(dv_k_t *k, uint64_t src, dv_dtype_t t);
/* Pipes (a bit per dv_pipe_t) the stream has emitted work for since a front end last said the scalar
 * unit waited for them (dvk_synced_pipes): what a compiler's automatic synchronisation orders a
 * scalar read after (Ascend C's GetValue). */
uint32_t dvk_unsynced_pipes(const dv_k_t *k);
void dvk_synced_pipes(dv_k_t *k, uint32_t pipes);
/* The same for a GM element (ld_gm: Ascend C GlobalTensor::GetValue). */
uint64_t dvk_load_gm(dv_k_t *k, uint64_t src, dv_dtype_t t);
/* The system counter as the scalar unit reads it when it issues get_sys_cnt (Ascend C
 * GetSystemCycle), in the same way (zero without a model). */
uint64_t dvk_read_sys_cnt(dv_k_t *k);
/* RSVD_CNT (the count of the last vreducev2) as the scalar unit reads it when it issues get_rsvd_cnt
 * (Ascend C GatherMask's rsvdCnt, GetRsvdCnt); the caller orders it after the V pipe. */
uint64_t dvk_read_rsvd_cnt(dv_k_t *k);
/* An element type's name ("f16", "s32", ...): dv_dtype_name for front ends that link only the
 * AscendCL library. */
const char *dvk_dtype_name(dv_dtype_t t);

/* A queue of `depth` equal buffers in one local space between a producer and a consumer pipe:
 * the TQue of Ascend C.  depth 2 is double buffering.
 *   producer: b = dvk_que_alloc(k, q); ...fill b on the producer pipe...; dvk_que_enque(k, q, b);
 *   consumer: b = dvk_que_deque(k, q); ...read b on the consumer pipe...; dvk_que_free(k, q, b);
 * alloc waits (on the producer pipe) until the consumer freed the buffer's previous contents;
 * enque signals the consumer; deque waits (on the consumer pipe) for it; free signals the producer.
 * Buffers are used round-robin; each costs one event id per direction. */
#define DVK_QUE_MAX 8
typedef struct dv_que {
    dv_space_t space;
    dv_pipe_t prod, cons;
    uint32_t depth;
    uint64_t bytes;                 /* per buffer, aligned */
    uint64_t buf[DVK_QUE_MAX];
    int ev_full[DVK_QUE_MAX];       /* prod -> cons ids */
    int ev_free[DVK_QUE_MAX];       /* cons -> prod ids */
    bool freed[DVK_QUE_MAX];        /* a free flag is pending for the producer */
    uint32_t n_alloc, n_enque, n_deque, n_free;
} dv_que_t;

void dvk_que_init(dv_k_t *k, dv_que_t *q, dv_space_t space, dv_pipe_t producer, dv_pipe_t consumer,
                  uint32_t depth, uint64_t bytes);
/* The same queue over buffers the kernel placed itself (bufs[0..depth-1], each at least `bytes`, in
 * `space`), as an Ascend C kernel lays UB out by hand with TBuf at fixed offsets. */
void dvk_que_init_bufs(dv_k_t *k, dv_que_t *q, dv_space_t space, dv_pipe_t producer, dv_pipe_t consumer,
                       uint32_t depth, uint64_t bytes, const uint64_t *bufs);
uint64_t dvk_que_alloc(dv_k_t *k, dv_que_t *q);
void dvk_que_enque(dv_k_t *k, dv_que_t *q, uint64_t buf);
uint64_t dvk_que_deque(dv_k_t *k, dv_que_t *q);
void dvk_que_free(dv_k_t *k, dv_que_t *q, uint64_t buf);

/* ---- vector mask helpers (set_vector_mask with the bits for the first n elements) ---- */
/* Normal mode, the first n (1..elements per repeat) elements of every repeat. */
void dvk_mask_first(dv_k_t *k, dv_dtype_t t, uint32_t n);
/* Normal mode, all elements. */
void dvk_mask_all(dv_k_t *k);

/* ---- emitting ---- */
/* Append one instruction (fields in fields.def order).  The generated dvk_<mnemonic> functions
 * call this; it checks the instruction against the ISA tables. */
void dvk_emit(dv_k_t *k, dv_op_t op, const dv_val_t *f, int nf);

/* ---- kernels as dv_kernel_t ---- */
/* A kernel object the model (or dv_trace_write_*) can read: `info` describes the launch (copied,
 * args included); fn runs once per block and sub-stream with `params` (copied: params_bytes).
 * source names the kernel in error messages. */
int dvk_kernel_create(const dv_config_t *cfg, const dv_kernel_info_t *info, dv_kernel_fn fn, const void *params,
                      size_t params_bytes, dv_kernel_t **out, dv_error_t *err);
void dvk_kernel_destroy(dv_kernel_t *k);
/* Run the kernel's functions on fibers on the model's own thread instead of a thread each: a
 * switch costs far less than a thread's hand-off, so the model reads instructions from a smaller
 * buffer that stays in the host's caches (the same instructions, the same results).  Only for a
 * function that keeps no thread-local state (Ascend C's headers do) and whose failures
 * (dvk_fail) need nothing undone on its stack: it is left there, not unwound.  The simulator's own
 * operators (dvsim op, fusion) run so. */
void dvk_kernel_on_fibers(dv_kernel_t *k);

/* Which cores a kernel uses, found as CANN's compiler finds it, from what the code does: block 0
 * is generated (not run) once for the AIC and once for an AIV of a split chip, and *kind is
 * DV_KIND_MIX when both emit work for a pipe other than the scalar unit's, DV_KIND_CUBE when only
 * the AIC does, else DV_KIND_VECTOR; on a coupled chip DV_KIND_CUBE when the core does cube work.
 * info->kind is ignored.  A kernel that fails while probed (in block 0, before it showed both kinds of
 * work) is an error: its kind cannot be known, and the failure would recur when it runs. */
int dvk_kernel_probe(const dv_config_t *cfg, const dv_kernel_info_t *info, dv_kernel_fn fn, const void *params,
                     size_t params_bytes, dv_kind_t *kind, dv_error_t *err);

/* Write every block of a kernel as a trace file (dvsim record); errors from the kernel are
 * returned as from the model. */
int dvk_kernel_record(dv_kernel_t *k, const char *path, dv_error_t *err);

#ifdef __cplusplus
}
#endif

#include "dv/kapi_insn.h" /* generated: one dvk_<mnemonic> per instruction */

#endif
