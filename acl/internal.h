/* acl/internal.h - the AscendCL shim's internal interface, shared by its files:
 *
 *   runtime.c  aclInit / aclFinalize, the recent error message, devices, contexts, the profile
 *   memory.c   simulated HBM: allocations, memcpy / memset, host memory, data buffers
 *   stream.c   streams of tasks, events, the scheduler that runs them on the model
 *   launch.c   custom kernels and traces launched on a stream (dvsimLaunchKernel / dvsimLaunchTrace)
 *   capture.c  stream capture into model runtime instances (aclmdlRI*)
 *   prof.c     aclprof* and DVSIM_PROFILE_OUT: op_summary CSV rows and the timeline JSON
 *   meta.c     aclnn objects: tensors, scalars, int arrays, executors
 *   nnops.c    aclnn operators: shape and dtype checks, a plan from the operator library, a launch
 *
 * Device memory is simulated HBM: device pointers are addresses from DV_ACL_DEV_BASE on, told apart
 * from host pointers by that range, so every API access is checked; the pages are mapped at those
 * addresses where the host allows it, so kernel code can dereference them (memory.c).
 * Work is queued on streams and simulated when the host synchronises (docs/ACL.md). */
#ifndef DV_ACL_INTERNAL_H
#define DV_ACL_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "dv/error.h"
#include "dv/file.h"
#include "dv/config.h"
#include "dv/kernel.h"
#include "dv/model.h"
#include "dv/ops.h"
#include "dv/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* First device address handed out by aclrtMalloc (far from where Linux maps host memory). */
#define DV_ACL_DEV_BASE 0x124000000000ull

/* ---- errors (runtime.c) ---- */
/* Record a message for aclGetRecentErrMsg (per thread) and return code. */
int dv_acl_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same with a dv_error_t's message (file:line:col: prefix when it has a location). */
int dv_acl_fail_err(int code, const char *what, const dv_error_t *err);
/* The last failure recorded under another code (an aclnn call reporting a runtime helper's failure
 * with its own code): the code aclGetRecentErrMsg shows becomes `code`, which is returned. */
int dv_acl_recode(int code);
/* ACL_SUCCESS, or ACL_ERROR_RT_FEATURE_NOT_SUPPORT while the streams run (a host callback or a kernel
 * calling back into the API): calls that would free what the running work uses (a stream, the
 * device, the session) are refused, naming `api`. */
int dv_acl_refuse_while_draining(const char *api);
/* Make msg (a message dv_acl_fail wrote earlier) the recent message again. */
void dv_acl_restore_msg(const char *msg);

/* ---- aclInit's JSON configuration (runtime.c, docs/ACL.md) ----
 * {"dvsim": {"profile": NAME, "config": FILE, "set": ["section.key=value", ...]},
 *  "profiler": {"switch": "on", "output": DIR}}; other keys (dump, ...) are CANN's and ignored. */
#define DV_ACL_INIT_OPS 64
typedef struct dv_acl_init_opts {
    dv_profile_op_t ops[DV_ACL_INIT_OPS]; /* the profile settings it names, in order */
    int nops;
    char *strings[DV_ACL_INIT_OPS];       /* owned copies of the JSON's strings */
    char prof_dir[1024];                  /* profiler output directory, or "" */
} dv_acl_init_opts_t;
/* Read the JSON text of file `path` (for messages; a relative "config" is relative to it) into o,
 * which starts zeroed: ACL_SUCCESS, or an AscendCL code with the recent message set.  Free o's
 * strings with dv_acl_init_opts_free either way. */
int dv_acl_init_json(const char *text, size_t len, const char *path, dv_acl_init_opts_t *o);
void dv_acl_init_opts_free(dv_acl_init_opts_t *o);

/* ---- one lock (runtime.c) ----
 * Every public entry point starts with DV_ACL_LOCKED(): the shim's state (allocations, streams,
 * the model) is used by one host thread at a time; the lock is recursive, so a host callback run
 * while draining may call the API again.  The guard unlocks when the function returns (the GCC /
 * Clang cleanup attribute). */
pthread_mutex_t *dv_acl_lock(void);
void dv_acl_unlock(pthread_mutex_t **m);
#define DV_ACL_LOCKED() \
    pthread_mutex_t *dv_acl_guard_ __attribute__((cleanup(dv_acl_unlock), unused)) = dv_acl_lock()

/* ---- live handles (runtime.c) ----
 * Objects handed to the client are registered with a kind; checks never read a handle that is not
 * registered, so destroyed or foreign handles are errors, not crashes. */
int dv_acl_handle_add(const void *p, uint32_t kind);  /* ACL_SUCCESS or ACL_ERROR_BAD_ALLOC */
bool dv_acl_handle_is(const void *p, uint32_t kind);
void dv_acl_handle_del(const void *p);

/* ---- state (runtime.c) ---- */
/* ACL_SUCCESS when aclInit ran (and aclFinalize did not), else the error, recorded. */
int dv_acl_check_init(const char *api);
/* ACL_SUCCESS when, in addition, a device is set on this process, else the error, recorded. */
int dv_acl_check_device(const char *api);
/* The chip profile chosen at aclInit. */
const dv_config_t *dv_acl_config(void);
/* DVSIM_WARM_UP: how many unmeasured runs each kernel makes on the same memory before its measured run. */
unsigned dv_acl_warm_up(void);
/* The model of that profile, built when the first kernel of the aclInit .. aclFinalize session
 * runs and kept until aclFinalize (its L2 contents carry from one kernel to the next), so a later
 * aclInit may choose any profile.  NULL, with err filled, when it cannot be built. */
dv_model_t *dv_acl_model(dv_error_t *err);

/* ---- device memory (memory.c) ---- */
/* The allocation holding device address `dev`: its host backing at dev and the bytes from dev to
 * the allocation's end.  ACL_SUCCESS, or ACL_ERROR_INVALID_PARAM (recorded, naming `what`) when dev
 * is not inside a live allocation. */
int dv_acl_mem_find(uint64_t dev, const char *what, uint8_t **host, uint64_t *avail);
/* Free every allocation (aclrtResetDevice, aclFinalize). */
void dv_acl_mem_reset(void);

/* A checked copy (or memset) between host and device memory, as queued on a stream. */
typedef struct dv_acl_copy {
    aclrtMemcpyKind kind;  /* resolved: HOST_TO_HOST .. DEVICE_TO_DEVICE (memsets: DEVICE_TO_DEVICE) */
    uint64_t dst, src;     /* device addresses or host pointers, as the kind says */
    uint64_t bytes;
    bool memset;           /* fill dst with value instead of copying */
    uint8_t value;
} dv_acl_copy_t;

/* Check a copy's arguments now (kinds, NULLs, destMax, device ranges inside one allocation) and
 * describe it in *out. */
int dv_acl_copy_check(const char *api, void *dst, size_t destMax, const void *src, size_t count,
                      aclrtMemcpyKind kind, dv_acl_copy_t *out);
/* Move the bytes (looking the device ranges up again: they may have been freed since). */
int dv_acl_copy_do(const dv_acl_copy_t *c);

/* ---- kernel launches (stream.c) ---- */
/* A tensor as a kernel argument sees it: `dims` elements laid out with `strides` (in elements)
 * from device address `dev`.  A kernel argument built from a view is staged: before the kernel
 * its elements are gathered into a contiguous buffer of the argument's size, and after it (for
 * outputs) scattered back, so views with any strides and allocations of any size work. */
#define DV_ACL_MAX_DIMS 8
typedef struct dv_acl_view {
    uint64_t dev;
    dv_dtype_t dtype;
    int ndims;
    int64_t dims[DV_ACL_MAX_DIMS];
    int64_t strides[DV_ACL_MAX_DIMS];
} dv_acl_view_t;

/* ACL_SUCCESS when every byte the view touches lies in one live allocation, else
 * ACL_ERROR_INVALID_PARAM recorded as "<what> spans N bytes from ADDR but ...". */
int dv_acl_view_check(const dv_acl_view_t *v, const char *what);

typedef struct dv_acl_karg {
    dv_arg_dir_t dir;
    bool staged;           /* true: `view` is gathered/scattered; false: raw bytes at `dev` */
    dv_acl_view_t view;    /* staged */
    uint64_t dev;          /* raw: the argument starts here and spans `bytes` */
    uint64_t bytes;        /* the kernel's argument size (staged: the plan's padded bytes) */
} dv_acl_karg_t;

#define DV_ACL_MAX_KARGS 16

/* One kernel launch, as queued on a stream. */
typedef struct dv_acl_launch {
    char op_type[64];               /* op_summary "OP Type": "Add", "MatMul", a custom kernel's name */
    char op_name[128];              /* op_summary "Op Name" */
    dv_kernel_t *kernel;            /* owned by the launch */
    void (*kernel_destroy)(dv_kernel_t *k);
    uint32_t nargs;                 /* == kernel->info.nargs */
    dv_acl_karg_t arg[DV_ACL_MAX_KARGS];
    char in_shapes[256], in_dtypes[128], in_formats[128];    /* op_summary columns, "" when unknown */
    char out_shapes[256], out_dtypes[128], out_formats[128];
    uint64_t flops;                 /* useful arithmetic (0: not meaningful) */
} dv_acl_launch_t;

/* Queue a launch on `stream` (NULL: the default stream).  Takes ownership of *l's kernel whatever
 * the outcome.  Checks now what can be checked now (raw arguments inside allocations). */
int dv_acl_enqueue_launch(aclrtStream stream, dv_acl_launch_t *l);
/* Queue a copy on `stream` (NULL: the default stream); `sync` then runs the device until it is
 * done (the blocking aclrtMemcpy / aclrtMemset). */
int dv_acl_enqueue_copy(aclrtStream stream, const dv_acl_copy_t *c, bool sync);
/* Run everything queued on every stream.  The first task error is returned (recorded) and kept
 * for the next dv_acl_sync; the tasks after a failed one on a STOP_ON_FAILURE stream are dropped.
 * Calls that only need the queued work done (aclrtFree, destroying a stream) use this. */
int dv_acl_drain(void);
/* dv_acl_drain for the synchronising calls (aclrtSynchronize*, queries, blocking copies): returns
 * the first task failure since the last synchronisation, even one an earlier drain ran into. */
int dv_acl_sync(void);
/* Forget every stream, event and queued task (aclrtResetDevice, aclFinalize). */
void dv_acl_streams_reset(void);

/* ---- stream capture (stream.c keeps the tapes, capture.c the aclmdlRI API) ----
 * A tape is the model runtime instance (aclmdlRI) a capture fills: the tasks queued on the
 * capturing streams, in queue order, each with its stream slot (0: the stream the capture began
 * on; 1..: streams that joined by waiting on an event recorded in the capture). */
#define DV_ACL_TAPE_SLOTS 16
#define DV_ACL_MAGIC_RI 0x6d6c5249u  /* handle kind of an aclmdlRI (a tape) */
typedef struct dv_acl_tape dv_acl_tape_t;
/* Start capturing `stream` into a new tape (registered as a DV_ACL_MAGIC_RI handle). */
int dv_acl_tape_begin(aclrtStream stream, aclmdlRICaptureMode mode, const char *api, dv_acl_tape_t **out);
/* The tape `stream` captures into (NULL: none; *rc says whether the stream is live). */
dv_acl_tape_t *dv_acl_tape_of(aclrtStream stream, const char *api, int *rc);
/* End the capture begun on `stream`: every joined stream must have joined back (else the tape is
 * freed and ACL_ERROR_RT_STREAM_UNJOINED returned). */
int dv_acl_tape_end(aclrtStream stream, const char *api, dv_acl_tape_t **out);
bool dv_acl_tape_capturing(const dv_acl_tape_t *tp);
/* ACL_SUCCESS, or ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC (recorded, naming api) when a capture
 * forbids the synchronising call api now. */
int dv_acl_capture_forbids(const char *api);
/* Queue a copy of every task of an ended tape: slot 0 on `stream`, the others on the tape's streams. */
int dv_acl_tape_replay(dv_acl_tape_t *tp, aclrtStream stream, const char *api);
/* Drain, then free the tape (and its handle and streams). */
void dv_acl_tape_free(dv_acl_tape_t *tp);
/* One task of a tape, for aclmdlRIDebugJsonPrint. */
typedef struct dv_acl_tape_item {
    uint32_t index;
    const char *kind;               /* "KERNEL", "MEMCPY", "MEMSET", "EVENT_RECORD", "EVENT_WAIT", "CALLBACK" */
    uint32_t slot, stream_id;       /* its slot and the id of the stream it was captured on */
    const dv_acl_launch_t *launch;  /* KERNEL */
    const dv_acl_copy_t *copy;      /* MEMCPY, MEMSET */
    uint32_t event;                 /* EVENT_*: events numbered from 1 by first appearance */
} dv_acl_tape_item_t;
void dv_acl_tape_visit(const dv_acl_tape_t *tp, void (*fn)(void *ctx, const dv_acl_tape_item_t *it), void *ctx);

/* ---- profiling (prof.c) ---- */
/* The source lines of one kernel run while profiling: instruction cycles summed per line (the
 * trace line, or the kernel source line an Ascend C API recorded; 0: none). */
#define DV_ACL_HOT_SLOTS 1024
typedef struct dv_acl_hot {
    uint32_t n;
    uint64_t other_count, other_cycles; /* lines beyond the table's slots */
    struct {
        uint32_t line;
        uint16_t op;                    /* the line's longest instruction */
        uint64_t count, cycles, longest;
    } e[DV_ACL_HOT_SLOTS];
    struct dv_timeline *pipes;          /* DVSIM_PIPE_TIMELINE: the run's instructions, or NULL */
    dv_out_t pipes_file;                /* ... written whole or not at all */
    char pipes_path[1200];
} dv_acl_hot_t;
/* The model's slice callback (dv_run_opts_t.on_slice) that fills a dv_acl_hot_t (ctx) and writes
 * the slice to its pipe timeline, if any. */
void dv_acl_hot_slice(void *ctx, uint32_t core, dv_pipe_t pipe, const dv_insn_t *insn, uint64_t start, uint64_t end);
/* With DVSIM_PIPE_TIMELINE=1, open DIR/pipes_<Task ID>_<name>.json for the kernel about to run
 * (the Task ID its op_summary row will take); otherwise nothing.  what names the task in errors. */
aclError dv_acl_prof_pipes_open(dv_acl_hot_t *h, const char *name, const char *what);
/* Finish the kernel's pipe timeline; without keep (the run failed) remove it.  The code of a
 * failed write. */
aclError dv_acl_prof_pipes_close(dv_acl_hot_t *h, bool keep, const char *what);
/* Profiling is collecting rows now. */
bool dv_acl_prof_running(void);

/* One finished task, for the timeline; kernels also carry their report inputs. */
typedef struct dv_acl_task_record {
    const char *kind;        /* "kernel", "memcpy", "memset", "event" */
    const char *name;
    uint32_t stream_id;
    uint64_t start_cycle, end_cycle;
    uint64_t wait_cycles;            /* from its stream's previous task's end to its start */
    const dv_acl_launch_t *launch;   /* kernels */
    const dv_counters_t *cnt;        /* kernels */
    const dv_acl_hot_t *hot;         /* kernels run while profiling: their source lines */
    uint64_t bytes;                  /* copies */
} dv_acl_task_record_t;

/* Called by the scheduler for every finished task (a no-op unless profiling is on). */
void dv_acl_prof_task(const dv_acl_task_record_t *r);
/* Profiling from the environment (DVSIM_PROFILE_OUT) or aclInit's JSON; flush at finalize. */
int dv_acl_prof_env_start(const char *dir);
void dv_acl_prof_shutdown(void);

#ifdef __cplusplus
}
#endif
#endif
