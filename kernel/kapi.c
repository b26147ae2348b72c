/* kernel/kapi.c - C kernels as instruction streams (dv/kapi.h).
 *
 * Each open stream runs its kernel function as a coroutine on a private stack: the function
 * appends instructions to a small buffer and is suspended when the buffer is full, so the model
 * reads any block lazily in O(1) memory, exactly as it reads a trace.  The coroutine is one of:
 *   - a POSIX thread that runs only while the model waits for it (a strict hand-off, so results
 *     never depend on host scheduling), for every kernel but the simulator's own.  A thread, not a
 *     fiber: Ascend C's headers keep a kernel's state in thread_local variables, so may a user's
 *     function, and the sanitizers and debuggers know threads.  A hand-off is a futex round trip,
 *     so its buffer is large (DVK_BUF_INSNS).
 *   - a fiber on the model's own thread, for the simulator's own kernels (ops/, fusion/:
 *     dvk_kernel_on_fibers), which keep no state but their stream and their params.  A switch is a
 *     few dozen host instructions and no system call on x86-64 (dvk_swap below), so its buffer is
 *     small (DVK_FIBER_INSNS) and stays in the host's caches from the kernel's writes to the
 *     model's reads: the 8192^3 matmul took a fifth less wall-clock time than on threads with
 *     1024-slot buffers.
 * Both run the same function body in the same order: the instructions, and so the results, are the
 * same either way.  Under AddressSanitizer the fibers' switches are announced to it
 * (__sanitizer_start_switch_fiber), so that it knows which stack is in use. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS (a fiber's stack) */
#include "kapi_emit.h" /* (before dv/kapi.h: the stream's state, and the inline dvk_<mnemonic>) */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "dv/hostmem.h" /* DV_ASAN */
#ifdef DV_ASAN
#define DVK_ASAN 1
#endif
#ifdef DVK_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#include "dv/intmath.h"
#include "dv/topology.h"
#include "dv/trace.h"


#define STACK_BYTES (256u * 1024u)

typedef struct ckernel {
    dv_kernel_t base;
    dv_config_t cfg;
    dv_arg_t *args;
    dv_kernel_fn fn;
    void *params;
    char source[DV_NAME_MAX + 8];
    bool fibers; /* its streams' functions run on fibers (dvk_kernel_on_fibers) */
} ckernel_t;

_Static_assert(DV_FLAG_IDS <= 16, "dv_k.events holds one bit per event id in a uint16_t");

/* ---------------------------------------------------------------- coroutine switches */

/* The stream whose kernel function runs on this thread (each stream's function has its own thread,
 * or is the fiber the model's thread runs now). */
static _Thread_local dv_k_t *g_current;

dv_k_t *dvk_current(void) { return g_current; }

/* The switch between the model's stack and a fiber's.  On x86-64 it is our own (dvk_swap below):
 * the registers a called function keeps (SysV ABI: rbx, rbp, r12-r15, the SSE and x87 control
 * words) pushed on the stack left, its pointer saved, the other's taken, its registers popped.
 * swapcontext also saves and restores the signal mask, a system call at every switch: the 8192^3
 * matmul made 72,000 of them, a fifth of its time in the kernel.  Elsewhere, and under
 * AddressSanitizer (whose swapcontext interceptor warns on stderr, once per process, that it may
 * report false positives - which the announcements below rule out - so getcontext and
 * setcontext, the same switch), the ucontext calls. */
#if defined(__x86_64__) && defined(__ELF__) && !defined(DVK_ASAN)
#define DVK_OWN_SWITCH 1
/* Save the caller's registers and stack pointer (*save), go on from the stack pointer `to`, which
 * an earlier dvk_swap saved (or fiber_start laid out). */
DVK_HIDDEN void dvk_swap(void **save, void *to);
__asm__(".text\n"
        ".p2align 4\n"
        ".globl dvk_swap\n"
        ".hidden dvk_swap\n"
        ".type dvk_swap, @function\n"
        "dvk_swap:\n"
        "    pushq %rbp\n"
        "    pushq %rbx\n"
        "    pushq %r12\n"
        "    pushq %r13\n"
        "    pushq %r14\n"
        "    pushq %r15\n"
        "    subq $8, %rsp\n"
        "    stmxcsr (%rsp)\n"
        "    fnstcw 4(%rsp)\n"
        "    movq %rsp, (%rdi)\n"
        "    movq %rsi, %rsp\n"
        "    ldmxcsr (%rsp)\n"
        "    fldcw 4(%rsp)\n"
        "    addq $8, %rsp\n"
        "    popq %r15\n"
        "    popq %r14\n"
        "    popq %r13\n"
        "    popq %r12\n"
        "    popq %rbx\n"
        "    popq %rbp\n"
        "    ret\n"
        ".size dvk_swap, .-dvk_swap\n");
#else
static void ctx_switch(ucontext_t *from, const ucontext_t *to)
{
#ifdef DVK_ASAN
    volatile bool back = false; /* (in memory: true once resumed from `from`) */
    getcontext(from);
    if (back)
        return;
    back = true;
    setcontext(to);
#else
    swapcontext(from, to);
#endif
}
#endif

#define STACK_GUARD 4096u /* below a fiber's stack: an overflow faults there */

/* A fiber's switch: from the model into k's function (to_kernel) or back; last: the function ends,
 * never to be resumed.  AddressSanitizer is told the stack switched to: the fiber's, or the model's,
 * which the fiber learns at each switch into it. */
static void fiber_switch(dv_k_t *k, bool to_kernel, bool last)
{
#ifdef DVK_ASAN
    void *fake = NULL;
    if (to_kernel)
        __sanitizer_start_switch_fiber(&fake, (char *)k->stack + STACK_GUARD, STACK_BYTES);
    else
        __sanitizer_start_switch_fiber(last ? NULL : &fake, k->model_stack, k->model_stack_bytes);
#else
    (void)last;
#endif
#ifdef DVK_OWN_SWITCH
    if (to_kernel)
        dvk_swap(&k->model_sp, k->kern_sp);
    else
        dvk_swap(&k->kern_sp, k->model_sp);
#else
    if (to_kernel)
        ctx_switch(&k->model_uc, &k->kern_uc);
    else
        ctx_switch(&k->kern_uc, &k->model_uc);
#endif
#ifdef DVK_ASAN
    if (to_kernel) /* back on the model's stack */
        __sanitizer_finish_switch_fiber(fake, NULL, NULL);
    else           /* back in the fiber, resumed by the model */
        __sanitizer_finish_switch_fiber(fake, &k->model_stack, &k->model_stack_bytes);
#endif
}

/* Hand the turn to the other side and wait until it is ours again. */
static void hand_off(dv_k_t *k, dvk_co_turn_t to)
{
    if (k->fiber) { /* (turn is the threads' condition: a fiber's switch is the turn) */
        if (to == DVK_TURN_KERNEL) {
            dv_k_t *const was = g_current; /* (a fiber runs within the model's turn) */
            g_current = k;
            fiber_switch(k, true, false);
            g_current = was;
        } else
            fiber_switch(k, false, false);
        return;
    }
    pthread_mutex_lock(&k->mu);
    k->turn = to;
    pthread_cond_broadcast(&k->cv);
    while (k->turn == to)
        pthread_cond_wait(&k->cv, &k->mu);
    pthread_mutex_unlock(&k->mu);
}

/* From the model into the kernel function, until it yields. */
static void co_resume(dv_k_t *k) { hand_off(k, DVK_TURN_KERNEL); }

/* From the kernel function back to the model.  When the stream was closed meanwhile (abandoned:
 * the probe saw enough, or the run failed), the function runs on to its end without emitting
 * anything (push drops), rather than being unwound from wherever it is: a C++ kernel may be inside
 * a destructor that emits (Ascend C's ~TPipe), where unwinding would terminate the process. */
static uint64_t native_take(void);
static void co_yield(dv_k_t *k)
{
    if (!k->abandon)
        hand_off(k, DVK_TURN_MODEL);
    (void)native_take(); /* what ran meanwhile was not this stream's */
}

/* The kernel function's last hand-off: it finished or failed and is never resumed. */
static void co_last_turn(dv_k_t *k)
{
    if (k->fiber) { /* back to the model for good: the stream's close frees the stack */
        fiber_switch(k, false, true);
        abort(); /* (never resumed) */
    }
    pthread_mutex_lock(&k->mu);
    k->turn = DVK_TURN_MODEL;
    pthread_cond_broadcast(&k->cv);
    pthread_mutex_unlock(&k->mu);
}

/* co_last_turn from inside the kernel function (a failure): the thread ends there, unwound; a
 * fiber is left where it is (the simulator's own kernels are C, whose frames hold nothing to undo:
 * the thread's unwinding would pass over them the same). */
static void co_exit(dv_k_t *k) __attribute__((noreturn));
static void co_exit(dv_k_t *k)
{
    co_last_turn(k);
    pthread_exit(NULL);
}

static void push(dv_k_t *k, const dv_insn_t *in);
static inline void commit(dv_k_t *k);

/* ---------------------------------------------------------------- native code (scalar cost rule 4) */

/* The counters of the translation units dvcc built (dvk_native_register): each counts the machine
 * instructions of the user's own source that ran.  Only one thread runs at a time during a launch
 * (the hand-off), so the counters hold what the running stream's function did since it last took
 * them or was resumed; whatever host code ran meanwhile is dropped at the resume. */
#define NATIVE_MAX 256u
static _Atomic(uint64_t *) g_native[NATIVE_MAX];
DVK_HIDDEN _Atomic uint32_t dvk_native_n_; /* slots ever used */
static pthread_mutex_t g_native_mu = PTHREAD_MUTEX_INITIALIZER;

void dvk_native_register(uint64_t *ops, bool on)
{
    pthread_mutex_lock(&g_native_mu);
    uint32_t i = 0;
    while (i < NATIVE_MAX && atomic_load_explicit(&g_native[i], memory_order_relaxed) != (on ? NULL : ops))
        i++;
    if (i < NATIVE_MAX) {
        atomic_store_explicit(&g_native[i], on ? ops : NULL, memory_order_release);
        if (i >= atomic_load_explicit(&dvk_native_n_, memory_order_relaxed))
            atomic_store_explicit(&dvk_native_n_, i + 1, memory_order_release);
    }
    else if (on) /* not charged, and said so: a program of more than NATIVE_MAX dvcc-built files */
        fprintf(stderr, "dvsim: more than %u translation units built by dvcc: the native code of the "
                        "later ones is not charged to the scalar unit\n", NATIVE_MAX);
    pthread_mutex_unlock(&g_native_mu);
}

/* Take the counts: charge them (rule 4) or, on a resume, drop them. */
static uint64_t native_take(void)
{
    uint64_t sum = 0;
    const uint32_t n = atomic_load_explicit(&dvk_native_n_, memory_order_acquire);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t *c = atomic_load_explicit(&g_native[i], memory_order_acquire);
        if (c) {
            sum += *c;
            *c = 0;
        }
    }
    return sum;
}

/* The most cycles one `scalar` instruction takes: its field's range in the ISA's field table. */
static inline uint64_t scalar_max(void)
{
    return (uint64_t)dv_form_spec(DV_FORM_SCALAR)->fields[DV_FLD(SCALAR, cycles)].max;
}

/* Build in `in` the `scalar` instruction (one field) of c cycles. */
static inline void scalar_at(const dv_k_t *k, dv_insn_t *in, uint64_t c)
{
    in->op = DV_OP_scalar;
    in->nf = 1;
    in->line = k->line;
    in->f[DV_FLD(SCALAR, cycles)].i = (int64_t)c;
}

static void flush_scalar(dv_k_t *k)
{
    k->pending_scalar += native_take() * k->kern->cfg.scalar_alu_cycles;
    while (k->pending_scalar) {
        uint64_t c = k->pending_scalar > scalar_max() ? scalar_max() : k->pending_scalar;
        scalar_at(k, k->wr, c); /* built in place */
        k->pending_scalar -= c;
        commit(k);
    }
}

/* The kernel function's body on its coroutine, once the model first hands it the turn. */
static void co_run(dv_k_t *k)
{
    (void)native_take();
    if (!k->abandon) {
        k->kern->fn(k, k->kern->params);
        flush_scalar(k);
        k->state = DVK_CO_DONE;
    }
    co_last_turn(k);
}

static void *co_entry(void *arg)
{
    dv_k_t *k = arg;
    g_current = k;
    pthread_mutex_lock(&k->mu);
    while (k->turn != DVK_TURN_KERNEL)
        pthread_cond_wait(&k->cv, &k->mu);
    pthread_mutex_unlock(&k->mu);
    co_run(k);
    /* Returning ends the thread as pthread_exit would, without unwinding a stack that holds nothing
     * (pthread_exit's forced unwind costs about 10,000 host instructions per stream). */
    return NULL;
}

/* A fiber's first function: it takes no argument (makecontext passes ints), so the stream comes
 * through g_starting, set just before the first switch to it. */
static _Thread_local dv_k_t *g_starting;
static void fiber_entry(void)
{
    dv_k_t *k = g_starting;
#ifdef DVK_ASAN
    __sanitizer_finish_switch_fiber(NULL, &k->model_stack, &k->model_stack_bytes);
#endif
    co_run(k); /* (ends in co_last_turn's switch) */
}

/* Fiber stacks: mapped with their guard page, and kept when their stream closes for the next
 * fibers (up to STACK_KEEP of them, for the process), so that a sweep, which opens dozens of streams
 * a point, does not map, protect and unmap a stack for each and fault its pages in again. */
#define STACK_KEEP 64u
static pthread_mutex_t g_stacks_mu = PTHREAD_MUTEX_INITIALIZER;
static void *g_stacks[STACK_KEEP];
static unsigned g_nstacks;

static __attribute__((noinline)) void *stack_take(void) /* (apart from getcontext's caller) */
{
    pthread_mutex_lock(&g_stacks_mu);
    void *m = g_nstacks ? g_stacks[--g_nstacks] : NULL;
    pthread_mutex_unlock(&g_stacks_mu);
    if (m)
        return m;
    m = mmap(NULL, STACK_GUARD + STACK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    if (mprotect(m, STACK_GUARD, PROT_NONE) != 0) {
        munmap(m, STACK_GUARD + STACK_BYTES);
        return NULL;
    }
    return m;
}

static void stack_give(void *m)
{
#ifdef DVK_ASAN /* the frames it left (not returned from) leave their redzones marked, for its next use */
    __asan_unpoison_memory_region((char *)m + STACK_GUARD, STACK_BYTES);
#endif
    pthread_mutex_lock(&g_stacks_mu);
    const bool kept = g_nstacks < STACK_KEEP;
    if (kept)
        g_stacks[g_nstacks++] = m;
    pthread_mutex_unlock(&g_stacks_mu);
    if (!kept)
        munmap(m, STACK_GUARD + STACK_BYTES);
}

/* A fiber for k's function: its stack (untouched pages take no memory) and its context. */
static bool fiber_start(dv_k_t *k)
{
    void *m = stack_take();
    if (!m)
        return false;
    k->stack = m;
#ifdef DVK_OWN_SWITCH
    /* The stack as dvk_swap leaves it, for its first switch in to pop: the control words (this
     * thread's), six registers (zero), then the address it returns to, fiber_entry, entered as if
     * called (its stack pointer 8 past a multiple of 16) by a caller whose return address, 0, ends
     * a debugger's backtrace there. */
    uint64_t *top = (uint64_t *)((char *)m + STACK_GUARD + STACK_BYTES); /* (page-aligned) */
    top[-1] = 0;
    top[-2] = (uint64_t)(uintptr_t)fiber_entry;
    for (int i = 3; i <= 8; i++)
        top[-i] = 0;
    uint32_t words[2] = {0, 0};
    __asm__ volatile("stmxcsr %0\n\tfnstcw %1" : "+m"(words[0]), "+m"(words[1]));
    memcpy(&top[-9], words, sizeof words);
    k->kern_sp = &top[-9];
#else
    if (getcontext(&k->kern_uc) != 0)
        return false;
    k->kern_uc.uc_stack.ss_sp = (char *)k->stack + STACK_GUARD; /* (k's, not a local: getcontext returns twice) */
    k->kern_uc.uc_stack.ss_size = STACK_BYTES;
    k->kern_uc.uc_link = NULL; /* (co_run never returns: it ends in a switch) */
    makecontext(&k->kern_uc, fiber_entry, 0);
#endif
    g_starting = k;
    return true;
}

/* ---------------------------------------------------------------- the stream */

/* Append the instruction built in the next slot (wr): when the buffer is full (it is the slot past the end), first hand
 * the buffer to the model, which empties it, and move it to the front.  Dropped when the stream was
 * abandoned. */
static __attribute__((noinline)) void hand_over_full(dv_k_t *k)
{
    k->state = DVK_CO_SUSPENDED;
    co_yield(k);
    if (!k->abandon) /* stream_next emptied the buffer before it resumed us */
        dv_insn_copy(k->wr, k->end);
}

static inline void commit(dv_k_t *k)
{
    if (k->wr == k->end && !k->abandon)
        hand_over_full(k);
    if (k->abandon)
        return;
    k->wr++;
    k->emitted++;
}

/* Append a copy of in. */
static void push(dv_k_t *k, const dv_insn_t *in)
{
    dv_insn_copy(k->wr, in);
    commit(k);
}

/* The buffer is empty: run the kernel function until it fills it or ends.  1 when there are
 * instructions to read, else stream_next's 0 or error. */
static __attribute__((noinline)) int refill(dv_k_t *k, dv_error_t *err)
{
    while (k->rd == k->rd_end) {
        if (k->state == DVK_CO_DONE)
            return 0;
        if (k->state == DVK_CO_FAILED) {
            if (err)
                *err = k->err;
            return k->err.code ? k->err.code : DV_ERR_STATE;
        }
        k->wr = k->buf;
        k->rd = k->rd_end = k->buf;
        if (k->state == DVK_CO_NEW) {
            int bad;
            if (k->fiber)
                bad = !fiber_start(k);
            else {
                pthread_attr_t attr;
                bad = pthread_attr_init(&attr) != 0;
                bad = bad || pthread_attr_setstacksize(&attr, STACK_BYTES) != 0 ||
                      pthread_create(&k->thread, &attr, co_entry, k) != 0;
                pthread_attr_destroy(&attr);
            }
            if (bad) {
                k->state = DVK_CO_FAILED;
                dv_error_set(&k->err, DV_ERR_NOMEM, k->stream.source, 0, 0,
                             "cannot start the kernel function of block %u", k->block);
                continue;
            }
            k->state = DVK_CO_SUSPENDED;
        }
        co_resume(k);
        k->rd_end = k->wr; /* what it appended before it yielded */
    }
    return 1;
}

/* stream_next when the buffer is empty: refill it, then hand over its first instruction. */
static __attribute__((noinline)) int next_after_refill(dv_k_t *k, dv_insn_t *out, dv_error_t *err)
{
    const int rc = refill(k, err);
    if (rc <= 0)
        return rc;
    dv_insn_copy(out, k->rd++);
    return 1;
}

/* The refill out of line (a tail call), so an instruction from the buffer needs no stack frame. */
static int stream_next(dv_stream_t *s, dv_insn_t *out, dv_error_t *err)
{
    dv_k_t *k = (dv_k_t *)s;
    if (k->rd == k->rd_end)
        return next_after_refill(k, out, err);
    dv_insn_copy(out, k->rd++);
    return 1;
}

static void stream_loaded(dv_stream_t *s, const uint8_t *bytes, unsigned n)
{
    dv_k_t *k = (dv_k_t *)s;
    k->loaded = 0;
    memcpy(&k->loaded, bytes, n < sizeof k->loaded ? n : sizeof k->loaded);
}

static void stream_close(dv_stream_t *s)
{
    dv_k_t *k = (dv_k_t *)s;
    if (k->fiber) {
        if (k->state == DVK_CO_SUSPENDED) { /* closed early: the function runs on to its end */
            k->abandon = true;
            k->wr_room = k->buf;
            hand_off(k, DVK_TURN_KERNEL);
        }
        if (k->stack)
            stack_give(k->stack);
    } else if (k->state != DVK_CO_NEW) {
        if (k->state == DVK_CO_SUSPENDED) { /* closed early: let the kernel thread end itself */
            pthread_mutex_lock(&k->mu);
            k->abandon = true;
            k->wr_room = k->buf;
            k->turn = DVK_TURN_KERNEL;
            pthread_cond_broadcast(&k->cv);
            pthread_mutex_unlock(&k->mu);
        }
        pthread_join(k->thread, NULL);
    }
    pthread_mutex_destroy(&k->mu);
    pthread_cond_destroy(&k->cv);
    free(k);
}

static int kernel_open(dv_kernel_t *base, uint32_t block, uint32_t sub, dv_stream_t **out, dv_error_t *err)
{
    ckernel_t *ck = (ckernel_t *)base;
    if (block >= base->info.blocks || sub >= base->info.subs)
        return dv_error_set(err, DV_ERR_RANGE, ck->source, 0, 0, "no block %u sub-stream %u", block, sub);
    /* Its buffer's room as it runs, not cleared: a slot is read only once the kernel has built an
     * instruction in it.  (A calloc of 205 KB, a thread's room also on a fiber, was half of a sweep's
     * host instructions: dozens of streams a point.) */
    const size_t room = ck->fibers ? DVK_FIBER_INSNS : DVK_BUF_INSNS;
    dv_k_t *k = malloc(offsetof(dv_k_t, buf) + (room + 1) * sizeof(dv_insn_t));
    if (!k)
        return dv_error_set(err, DV_ERR_NOMEM, ck->source, 0, 0, "out of memory for block %u", block);
    memset(k, 0, offsetof(dv_k_t, buf));
    pthread_mutex_init(&k->mu, NULL);
    pthread_cond_init(&k->cv, NULL);
    k->turn = DVK_TURN_MODEL;
    k->stream.next = stream_next;
    k->stream.close = stream_close;
    k->stream.loaded = stream_loaded;
    k->stream.source = ck->source;
    k->kern = ck;
    k->block = block;
    k->sub = sub;
    if (base->info.kind == DV_KIND_MIX)
        dv_topo_sub_name(sub, k->sub_name, sizeof k->sub_name);
    k->state = DVK_CO_NEW;
    k->fiber = ck->fibers;
    k->end = k->buf + room;
    k->wr = k->buf;
    k->wr_room = k->end;
    k->rd = k->rd_end = k->buf;
    *out = &k->stream;
    return DV_OK;
}

/* ---------------------------------------------------------------- errors */

void dvk_fail(dv_k_t *k, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    dv_error_set(&k->err, DV_ERR_RANGE, k->stream.source, 0, 0, "%s (block %u%s%s, after instruction #%llu)", msg,
                 k->block, *k->sub_name ? " " : "", k->sub_name, (unsigned long long)k->emitted);
    k->state = DVK_CO_FAILED;
    k->abandon = true; /* destructors run by the unwinding below emit nothing (push drops) */
    k->wr_room = k->buf;
    co_exit(k);
}

/* ---------------------------------------------------------------- emitting */

/* dvk_emit's rare paths, out of line (below) so that its own frame stays small. */
static void emit_failed(dv_k_t *k, const dv_insn_t *in) __attribute__((noinline, noreturn));
static void emit_after_charges(dv_k_t *k, const dv_insn_t *in) __attribute__((noinline));
static void emit_miscounted(dv_k_t *k, dv_op_t op, int nf) __attribute__((noinline, noreturn));

/* The first field id of each form (dv/isa.h's dv_field_gid), then DV_G_COUNT: a form's field count is
 * the difference less one, a constant where the form is (dvk_emit's cases). */
static const uint16_t form_gid[DV_FORM_COUNT + 1] = {
#define DV_FORM(form, desc) DV_G_FORMSTART_##form,
#include "fields.def"
    DV_G_COUNT};
#define FORM_NF(form) (form_gid[DV_FORM_##form + 1] - form_gid[DV_FORM_##form] - 1)

void dvk_emit(dv_k_t *k, dv_op_t op, const dv_val_t *f, int nf)
{
    /* Built and checked where it is read from (commit), not copied there: the next slot, which exists
     * even when the buffer is full.  Every field of the form is given: no defaults to fill in.  One
     * case per op (isa.def), so its field count and pipe are constants, its fields are copied by a
     * copy of known size, and they are checked by dv_insn_check's quick pass for that op (its
     * columns constants), with no second switch on the op and no call; only an instruction the
     * quick pass doubts goes to dv_insn_check itself, the verdict.  The rest is dvk_end_ (kapi_emit.h),
     * the same as for the inline dvk_<mnemonic> the simulator's own kernels call. */
    dv_insn_t *in = k->wr;
    unsigned pipe;
    bool quick; /* dv_insn_check's quick pass (isa_quick.h) passed: the instruction is valid */
    in->op = (uint16_t)op;
    switch (op) {
#define DV_INSN(mn, pipe_, form, cost, dst, src, dtypes, desc)                                                        \
    case DV_OP_##mn:                                                                                                  \
        if (nf != FORM_NF(form))                                                                                      \
            emit_miscounted(k, op, nf);                                                                               \
        if (FORM_NF(form) > 0) /* a form without operands may come with f == NULL, which memcpy may not be given */  \
            memcpy(in->f, f, FORM_NF(form) * sizeof *f);                                                              \
        in->nf = FORM_NF(form);                                                                                       \
        pipe = DV_PIPE_##pipe_;                                                                                       \
        quick = DV_INSN_QUICK(in, form, DV_SPACE_##dst, DV_SPACE_##src, dtypes);                                      \
        break;
#include "isa.def"
    default:
        dvk_fail(k, "invalid opcode %d", (int)op);
    }
    in->line = k->line;
    dvk_end_(k, in, pipe, quick);
}

void dvk_emit_built_(dv_k_t *k, dv_insn_t *in, unsigned pipe, bool quick)
{
    if (!quick && dv_insn_check(in, NULL) != DV_OK) /* dv_insn_check the verdict when the quick pass doubts */
        emit_failed(k, in);
    dvk_note_pipes_(k, in, pipe);
    if (dvk_scalar_owed_(k))
        emit_after_charges(k, in);
    else
        commit(k);
}

/* The kernel gave nf operands to op, whose form has another count. */
static void emit_miscounted(dv_k_t *k, dv_op_t op, int nf)
{
    dvk_fail(k, "%s takes %u operands, not %d", dv_op_spec(op)->mnemonic, (unsigned)dv_insn_rules(op)->nf, nf);
}

/* The instruction failed its check: again, for the message. */
static void emit_failed(dv_k_t *k, const dv_insn_t *in)
{
    dv_error_t e;
    dv_insn_check(in, &e);
    dvk_fail(k, "instruction #%llu: %s", (unsigned long long)k->emitted + (k->pending_scalar ? 1 : 0), e.msg);
}

/* The charges go first, into the slot the instruction was built in (in, the buffer's next).  Mostly
 * they are one `scalar` instruction of the bookkeeping's cycles (no native code counted) and the
 * buffer has room for it: the instruction moves one slot on and the scalar is built in its place,
 * the two committed in that order, as flush_scalar and push would.  Otherwise the instruction is
 * held meanwhile. */
static void emit_after_charges(dv_k_t *k, const dv_insn_t *in)
{
    if (k->wr < k->wr_room && k->pending_scalar <= scalar_max() && /* (room, and not abandoned) */
        !atomic_load_explicit(&dvk_native_n_, memory_order_acquire)) {
        dv_insn_copy(k->wr + 1, in); /* (the slot past the end at the most) */
        scalar_at(k, k->wr, k->pending_scalar);
        k->pending_scalar = 0;
        k->wr++; /* the scalar's commit: the buffer was not full */
        k->emitted++;
        commit(k);
        return;
    }
    dv_insn_t held;
    dv_insn_copy(&held, in);
    flush_scalar(k);
    push(k, &held);
}

static void charge(dv_k_t *k)
{
    k->pending_scalar += k->kern->cfg.scalar_bookkeeping_cycles;
}

/* ---------------------------------------------------------------- where the block runs */

uint32_t dvk_block_idx(const dv_k_t *k) { return k->block; }
uint32_t dvk_block_num(const dv_k_t *k) { return k->kern->base.info.blocks; }
uint32_t dvk_sub(const dv_k_t *k) { return k->sub; }
dv_kind_t dvk_kind(const dv_k_t *k) { return k->kern->base.info.kind; }
void dvk_set_line(dv_k_t *k, uint32_t line) { k->line = line; }
bool dvk_probing(const dv_k_t *k) { return k->probing; }
const dv_config_t *dvk_config(const dv_k_t *k) { return &k->kern->cfg; }

/* The stream runs on a core type that owns the cube (M) or the vector (V) pipe. */
static bool runs_on_pipe(const dv_k_t *k, dv_pipe_t p)
{
    const dv_config_t *cfg = &k->kern->cfg;
    return dv_topo_has_pipe(cfg, dv_topo_stream_type(cfg, k->kern->base.info.kind, k->sub), p);
}

bool dvk_is_aic(const dv_k_t *k) { return runs_on_pipe(k, DV_PIPE_M); }

bool dvk_has_pipe(const dv_k_t *k, dv_pipe_t p) { return runs_on_pipe(k, p); }

bool dvk_has_space(const dv_k_t *k, dv_space_t s)
{
    const dv_config_t *cfg = &k->kern->cfg;
    return dv_topo_has_buffer(cfg, dv_topo_stream_type(cfg, k->kern->base.info.kind, k->sub), s);
}

uint64_t dvk_space_bytes(const dv_k_t *k, dv_space_t s) { return dv_topo_buffer_size(&k->kern->cfg, s); }
uint64_t dvk_space_align(const dv_k_t *k, dv_space_t s) { return dv_topo_buffer_align(&k->kern->cfg, s); }
const char *dvk_space_name(dv_space_t s) { return dv_space_name(s); }
const char *dvk_space_key(dv_space_t s) { return dv_topo_buffer_key(s); }

bool dvk_is_aiv(const dv_k_t *k) { return runs_on_pipe(k, DV_PIPE_V); }

/* ---------------------------------------------------------------- memory */

uint64_t dvk_gm(dv_k_t *k, uint32_t arg, uint64_t offset)
{
    const dv_kernel_info_t *i = &k->kern->base.info;
    if (arg >= i->nargs)
        dvk_fail(k, "GM argument %u does not exist: the kernel has %u", arg, i->nargs);
    if (offset > i->args[arg].bytes)
        dvk_fail(k, "offset %llu is past the end of GM argument '%s' (%llu bytes)", (unsigned long long)offset,
                 i->args[arg].name, (unsigned long long)i->args[arg].bytes);
    return DV_GM_ADDR(arg, offset);
}

uint64_t dvk_gm_bytes(dv_k_t *k, uint32_t arg)
{
    const dv_kernel_info_t *i = &k->kern->base.info;
    if (arg >= i->nargs)
        dvk_fail(k, "GM argument %u does not exist: the kernel has %u", arg, i->nargs);
    return i->args[arg].bytes;
}

uint64_t dvk_alloc(dv_k_t *k, dv_space_t space, uint64_t bytes)
{
    const uint64_t size = dv_topo_buffer_size(&k->kern->cfg, space), align = dv_topo_buffer_align(&k->kern->cfg, space);
    const char *key = dv_topo_buffer_key(space);
    if (space == DV_SPACE_GM || space >= DV_SPACE_COUNT)
        dvk_fail(k, "dvk_alloc: %s is not a local buffer", space == DV_SPACE_GM ? "gm" : "this space");
    uint64_t need = dv_round_up(bytes, align);
    if (bytes == 0 || need > size - k->used[space] || k->used[space] > size)
        dvk_fail(k, "%s allocation of %llu bytes does not fit: %llu of %llu bytes (%s) are already allocated",
                 dv_space_name(space), (unsigned long long)bytes, (unsigned long long)k->used[space],
                 (unsigned long long)size, key);
    uint64_t off = k->used[space];
    k->used[space] += need;
    charge(k);
    return DV_ADDR(space, off);
}

uint64_t dvk_free_bytes(const dv_k_t *k, dv_space_t space)
{
    const uint64_t size = dv_topo_buffer_size(&k->kern->cfg, space);
    return size > k->used[space] ? size - k->used[space] : 0;
}

/* ---------------------------------------------------------------- synchronisation */

int dvk_event_alloc(dv_k_t *k, dv_pipe_t src, dv_pipe_t dst)
{
    if ((int)src < 0 || src >= DV_PIPE_COUNT || (int)dst < 0 || dst >= DV_PIPE_COUNT)
        dvk_fail(k, "dvk_event_alloc: bad pipe pair");
    uint64_t n = k->kern->cfg.sync_event_ids;
    for (uint64_t id = 0; id < n && id < DV_FLAG_IDS; id++)
        if (!(k->events[src][dst] & (1u << id))) {
            k->events[src][dst] |= (uint16_t)(1u << id);
            return (int)id;
        }
    dvk_fail(k, "no free event id for %s -> %s: all %llu (sync.event_ids) are taken", dv_pipe_name(src),
             dv_pipe_name(dst), (unsigned long long)n);
}

void dvk_event_free(dv_k_t *k, dv_pipe_t src, dv_pipe_t dst, int id)
{
    if ((int)src < 0 || src >= DV_PIPE_COUNT || (int)dst < 0 || dst >= DV_PIPE_COUNT || id < 0 || id >= DV_FLAG_IDS ||
        !(k->events[src][dst] & (1u << id)))
        dvk_fail(k, "dvk_event_free: event id %d of %s -> %s is not allocated", id,
                 (int)src >= 0 && src < DV_PIPE_COUNT ? dv_pipe_name(src) : "?",
                 (int)dst >= 0 && dst < DV_PIPE_COUNT ? dv_pipe_name(dst) : "?");
    k->events[src][dst] &= (uint16_t)~(1u << id);
}

void dvk_bookkeeping(dv_k_t *k) { charge(k); }

/* Hand the buffered instructions, the last of which reads a value, to the model and wait: it asks
 * for more only after the scalar unit issued that one, whose value stream_loaded has stored. */
#define ABANDONED_LOADS_MAX 65536u

static uint64_t await_value(dv_k_t *k)
{
    if (!k->abandon) {
        k->state = DVK_CO_SUSPENDED;
        co_yield(k);
    }
    /* An abandoned kernel reads zeros; one that keeps reading (a loop polling GM for another
     * block) is ended here, outside any destructor: it is in an Ascend C GetValue. */
    if (k->abandon && ++k->abandoned_loads > ABANDONED_LOADS_MAX)
        co_exit(k); /* (abandoned: nothing reads its error) */
    return k->loaded;
}

uint32_t dvk_unsynced_pipes(const dv_k_t *k) { return k->unsynced; }
void dvk_synced_pipes(dv_k_t *k, uint32_t pipes) { k->unsynced &= ~pipes; }

uint64_t dvk_load_ub(dv_k_t *k, uint64_t src, dv_dtype_t t)
{
    k->loaded = 0;
    dvk_ld_ub(k, src, t);
    return await_value(k);
}

uint64_t dvk_load_gm(dv_k_t *k, uint64_t src, dv_dtype_t t)
{
    k->loaded = 0;
    dvk_ld_gm(k, src, t);
    return await_value(k);
}

uint64_t dvk_read_sys_cnt(dv_k_t *k)
{
    k->loaded = 0;
    dvk_get_sys_cnt(k);
    return await_value(k);
}

const char *dvk_dtype_name(dv_dtype_t t) { return dv_dtype_name(t); }

uint64_t dvk_read_rsvd_cnt(dv_k_t *k)
{
    k->loaded = 0;
    dvk_get_rsvd_cnt(k);
    return await_value(k);
}

/* The part of a queue both initialisers set: its space, pipes and depth (checked). */
static void que_setup(dv_k_t *k, dv_que_t *q, dv_space_t space, dv_pipe_t producer, dv_pipe_t consumer, uint32_t depth)
{
    if (depth < 1 || depth > DVK_QUE_MAX)
        dvk_fail(k, "queue depth %u is out of range [1, %d]", depth, DVK_QUE_MAX);
    memset(q, 0, sizeof *q);
    q->space = space;
    q->prod = producer;
    q->cons = consumer;
    q->depth = depth;
}

void dvk_que_init(dv_k_t *k, dv_que_t *q, dv_space_t space, dv_pipe_t producer, dv_pipe_t consumer, uint32_t depth,
                  uint64_t bytes)
{
    que_setup(k, q, space, producer, consumer, depth);
    for (uint32_t i = 0; i < depth; i++) {
        q->buf[i] = dvk_alloc(k, space, bytes);
        q->ev_full[i] = dvk_event_alloc(k, producer, consumer);
        q->ev_free[i] = dvk_event_alloc(k, consumer, producer);
    }
    q->bytes = depth > 1 ? DV_ADDR_OFF(q->buf[1]) - DV_ADDR_OFF(q->buf[0]) : bytes;
}

void dvk_que_init_bufs(dv_k_t *k, dv_que_t *q, dv_space_t space, dv_pipe_t producer, dv_pipe_t consumer,
                       uint32_t depth, uint64_t bytes, const uint64_t *bufs)
{
    que_setup(k, q, space, producer, consumer, depth);
    q->bytes = bytes;
    for (uint32_t i = 0; i < depth; i++) {
        if (DV_ADDR_SPACE(bufs[i]) != space)
            dvk_fail(k, "queue buffer %u (0x%llx) is not in the queue's space", i,
                     (unsigned long long)DV_ADDR_OFF(bufs[i]));
        q->buf[i] = bufs[i];
        charge(k); /* as dvk_que_init's dvk_alloc of each buffer */
        q->ev_full[i] = dvk_event_alloc(k, producer, consumer);
        q->ev_free[i] = dvk_event_alloc(k, consumer, producer);
    }
}

/* A queue's charge and then its flag: charge(k), then dvk_set_flag (set) or dvk_wait_flag (!set)
 * of src -> dst, id, exactly as those two calls.  Mostly nothing else is owed and both fit below
 * wr_room: the scalar of the charge and the flag, checked by its quick pass, are built in their
 * slots and appended at once, as emit_after_charges would append them; anything else is the two
 * calls (the same message, its instruction number counting the charge, for a bad flag). */
static inline __attribute__((always_inline)) void charge_then_flag(dv_k_t *k, bool set, dv_pipe_t src, dv_pipe_t dst,
                                                                   int id)
{
    dv_insn_t *in = k->wr;
    const uint64_t c = k->pending_scalar + k->kern->cfg.scalar_bookkeeping_cycles;
    if (__builtin_expect(k->wr_room - in >= 2 && c - 1 < scalar_max() && /* (c cycles owed: one scalar) */
                             !atomic_load_explicit(&dvk_native_n_, memory_order_acquire),
                         1)) {
        dv_insn_t *fl = in + 1;
        fl->op = set ? DV_OP_set_flag : DV_OP_wait_flag;
        fl->nf = 3;
        fl->line = k->line;
        fl->f[DV_FLD(FLAG, src)].i = (int64_t)src;
        fl->f[DV_FLD(FLAG, dst)].i = (int64_t)dst;
        fl->f[DV_FLD(FLAG, id)].i = (int64_t)id;
        if (set ? dvk_quick_set_flag_(fl) : dvk_quick_wait_flag_(fl)) {
            scalar_at(k, in, c);
            k->pending_scalar = 0;
            dvk_note_pipes_(k, fl, set ? dvk_pipe_set_flag_ : dvk_pipe_wait_flag_);
            k->wr = in + 2;
            k->emitted += 2;
            return;
        }
    }
    charge(k);
    if (set)
        dvk_set_flag(k, src, dst, id);
    else
        dvk_wait_flag(k, src, dst, id);
}

static uint32_t slot_of(dv_k_t *k, const dv_que_t *q, uint64_t buf, const char *what)
{
    for (uint32_t i = 0; i < q->depth; i++)
        if (q->buf[i] == buf)
            return i;
    dvk_fail(k, "%s: 0x%llx is not a buffer of this queue", what, (unsigned long long)DV_ADDR_OFF(buf));
}

uint64_t dvk_que_alloc(dv_k_t *k, dv_que_t *q)
{
    if (q->n_alloc - q->n_free >= q->depth)
        dvk_fail(k, "queue alloc: all %u buffers are in use (free one first)", q->depth);
    uint32_t i = q->n_alloc++ % q->depth;
    if (q->freed[i]) { /* WAR: the consumer's reads of the previous contents must be done */
        charge_then_flag(k, false, q->cons, q->prod, q->ev_free[i]);
        q->freed[i] = false;
    } else
        charge(k);
    return q->buf[i];
}

void dvk_que_enque(dv_k_t *k, dv_que_t *q, uint64_t buf)
{
    uint32_t i = slot_of(k, q, buf, "queue enque");
    if (i != q->n_enque % q->depth || q->n_enque >= q->n_alloc)
        dvk_fail(k, "queue enque out of order: buffer %u enqueued, %u expected", i, q->n_enque % q->depth);
    q->n_enque++;
    charge_then_flag(k, true, q->prod, q->cons, q->ev_full[i]);
}

uint64_t dvk_que_deque(dv_k_t *k, dv_que_t *q)
{
    if (q->n_deque >= q->n_enque)
        dvk_fail(k, "queue deque with nothing enqueued (it would wait forever)");
    uint32_t i = q->n_deque++ % q->depth;
    charge_then_flag(k, false, q->prod, q->cons, q->ev_full[i]);
    return q->buf[i];
}

void dvk_que_free(dv_k_t *k, dv_que_t *q, uint64_t buf)
{
    uint32_t i = slot_of(k, q, buf, "queue free");
    if (i != q->n_free % q->depth || q->n_free >= q->n_deque)
        dvk_fail(k, "queue free out of order: buffer %u freed, %u expected", i, q->n_free % q->depth);
    q->n_free++;
    charge_then_flag(k, true, q->cons, q->prod, q->ev_free[i]);
    q->freed[i] = true;
}

/* ---------------------------------------------------------------- masks */

void dvk_mask_first(dv_k_t *k, dv_dtype_t t, uint32_t n)
{
    unsigned size = dv_dtype_size(t);
    uint32_t per = size ? (uint32_t)(k->kern->cfg.vector_repeat_bytes / size) : 0;
    if (per > 128)
        per = 128; /* the bit mask holds 128 elements */
    if (n < 1 || n > per)
        dvk_fail(k, "mask of %u elements is out of range [1, %u] for %s", n, per, dv_dtype_name(t));
    uint64_t lo = n >= 64 ? ~0ull : (1ull << n) - 1;
    uint64_t hi = n <= 64 ? 0 : n >= 128 ? ~0ull : (1ull << (n - 64)) - 1;
    dvk_set_vector_mask(k, hi, lo);
}

void dvk_mask_all(dv_k_t *k) { dvk_set_vector_mask(k, ~0ull, ~0ull); }

/* ---------------------------------------------------------------- kernel objects */

int dvk_kernel_create(const dv_config_t *cfg, const dv_kernel_info_t *info, dv_kernel_fn fn, const void *params,
                      size_t params_bytes, dv_kernel_t **out, dv_error_t *err)
{
    *out = NULL;
    if (!fn || !info || info->blocks == 0)
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "a kernel needs a function and at least one block");
    if (dv_topo_kernel_subs(cfg, info->kind) == 0) /* e.g. a mix kernel on a coupled chip */
        return dv_topo_check_kernel(cfg, info, err);
    ckernel_t *ck = calloc(1, sizeof *ck);
    if (!ck)
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
    ck->cfg = *cfg;
    ck->base.info = *info;
    ck->base.info.subs = dv_topo_kernel_subs(cfg, info->kind);
    ck->base.open = kernel_open;
    ck->base.impl = ck;
    ck->fn = fn;
    snprintf(ck->source, sizeof ck->source, "kernel %s", info->name);
    ck->args = calloc(info->nargs ? info->nargs : 1, sizeof *ck->args);
    ck->params = malloc(params_bytes ? params_bytes : 1);
    if (!ck->args || !ck->params) {
        dvk_kernel_destroy(&ck->base);
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    if (info->nargs)
        memcpy(ck->args, info->args, info->nargs * sizeof *ck->args);
    if (params_bytes)
        memcpy(ck->params, params, params_bytes);
    ck->base.info.args = ck->args;
    *out = &ck->base;
    return DV_OK;
}

void dvk_kernel_on_fibers(dv_kernel_t *k)
{
    if (k)
        ((ckernel_t *)k)->fibers = true;
}

void dvk_kernel_destroy(dv_kernel_t *k)
{
    if (!k)
        return;
    ckernel_t *ck = (ckernel_t *)k;
    free(ck->args);
    free(ck->params);
    free(ck);
}

int dvk_kernel_record(dv_kernel_t *k, const char *path, dv_error_t *err)
{
    int rc = DV_OK;
    FILE *f = fopen(path, "wb");
    if (!f)
        return dv_error_set(err, DV_ERR_IO, path, 0, 0, "cannot write the trace");
    const dv_kernel_info_t *info = &k->info;
    if (dv_trace_write_header(f, info) != DV_OK) {
        rc = dv_error_set(err, DV_ERR_RANGE, path, 0, 0, "kernel '%s' cannot be written as a trace", info->name);
        goto cleanup;
    }
    for (uint32_t b = 0; b < info->blocks && rc == DV_OK; b++)
        for (uint32_t s = 0; s < info->subs && rc == DV_OK; s++) {
            dv_stream_t *st = NULL;
            if ((rc = k->open(k, b, s, &st, err)) != DV_OK)
                break;
            if (dv_trace_write_block(f, info, b, s) != DV_OK)
                rc = dv_error_set(err, DV_ERR_IO, path, 0, 0, "write failed");
            dv_insn_t in;
            int n;
            while (rc == DV_OK && (n = st->next(st, &in, err)) > 0)
                if (dv_trace_write_insn(f, info, &in) != DV_OK)
                    rc = dv_error_set(err, DV_ERR_IO, path, 0, 0, "write failed");
            if (rc == DV_OK && n < 0)
                rc = n;
            st->close(st);
        }
    if (rc == DV_OK && dv_trace_write_end(f) != DV_OK)
        rc = dv_error_set(err, DV_ERR_IO, path, 0, 0, "write failed");
cleanup:
    if (fclose(f) != 0 && rc == DV_OK)
        rc = dv_error_set(err, DV_ERR_IO, path, 0, 0, "write failed");
    if (rc != DV_OK)
        remove(path);
    return rc;
}

/* ---------------------------------------------------------------- which cores a kernel uses */

#define PROBE_MAX_INSNS (1u << 20)

/* Generate one stream of block 0 without running it; *work tells whether it emitted anything for a
 * pipe other than the scalar unit's, *cube whether for the cube side (M, MTE1, FIX). */
static int probe_stream(dv_kernel_t *kern, uint32_t sub, bool *work, bool *cube, dv_error_t *err)
{
    dv_stream_t *st = NULL;
    *work = *cube = false;
    int rc = kern->open(kern, 0, sub, &st, err);
    if (rc != DV_OK)
        return rc;
    ((dv_k_t *)st)->probing = true;
    dv_insn_t in;
    int got = 0;
    for (uint32_t n = 0; n < PROBE_MAX_INSNS && (got = st->next(st, &in, err)) > 0; n++) {
        const dv_op_spec_t *os = dv_op_spec(in.op);
        if (!os || os->pipe == DV_PIPE_S)
            continue;
        *work = true;
        if (os->pipe == DV_PIPE_M || os->pipe == DV_PIPE_MTE1 || os->pipe == DV_PIPE_FIX)
            *cube = true;
        if (sub != DV_SUB_MAIN || *cube)
            break;
    }
    st->close(st);
    return got < 0 ? got : DV_OK;
}

int dvk_kernel_probe(const dv_config_t *cfg, const dv_kernel_info_t *info, dv_kernel_fn fn, const void *params,
                     size_t params_bytes, dv_kind_t *kind, dv_error_t *err)
{
    const bool split = dv_topo_kernel_subs(cfg, DV_KIND_MIX) > 0;
    dv_kernel_info_t pi = *info;
    pi.kind = split ? DV_KIND_MIX : DV_KIND_VECTOR;
    dv_kernel_t *kern = NULL;
    int rc = dvk_kernel_create(cfg, &pi, fn, params, params_bytes, &kern, err);
    if (rc != DV_OK)
        return rc;
    bool work, cube;
    if (split) {
        bool aic, aiv;
        rc = probe_stream(kern, DV_SUB_AIC, &aic, &cube, err);
        if (rc == DV_OK)
            rc = probe_stream(kern, DV_SUB_AIV0, &aiv, &cube, err);
        *kind = aic && aiv ? DV_KIND_MIX : aic ? DV_KIND_CUBE : DV_KIND_VECTOR;
    } else {
        rc = probe_stream(kern, DV_SUB_MAIN, &work, &cube, err);
        *kind = cube ? DV_KIND_CUBE : DV_KIND_VECTOR;
    }
    dvk_kernel_destroy(kern);
    return rc;
}
