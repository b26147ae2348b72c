/* acl/stream.c - streams, events and the scheduler that runs their tasks on the model.
 *
 * Every stream is an in-order queue of tasks (kernel, copy, memset, event record, event wait, host
 * callback, notify record and wait).  Nothing runs when it is queued: a synchronising call
 * (aclrtSynchronize*, a blocking copy, aclrtFree) drains every stream; a status query runs one task.  Draining repeatedly takes, among the
 * streams whose head task can start, the one that can start earliest in simulated time (ties: the
 * lower stream id) and runs it:
 *   - a kernel starts when its stream and the AI cores are free; it takes the cycles the model
 *     reports (launch overhead included); kernels do not overlap each other;
 *   - a copy starts when its stream and its copy engine (one per direction: host-to-device,
 *     device-to-host, device-to-device) are free and takes host.copy_start_cycles plus its bytes
 *     over host.link_bytes_per_cycle (device-to-device and memset: over the sustained HBM rate, read
 *     and write); copies overlap kernels of other streams;
 *   - an event record stamps the event with its stream's time; a wait holds its stream until the
 *     record it refers to (the event's last record queued before the wait) has run.
 * Simulated time advances only with device work: gaps on the host are not modelled. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "dv/intmath.h"

typedef enum task_kind { T_KERNEL, T_COPY, T_RECORD, T_WAIT, T_CALLBACK, T_NOTIFY_RECORD, T_NOTIFY_WAIT } task_kind_t;

typedef struct dv_acl_event dv_acl_event_t;
typedef struct dv_acl_stream dv_acl_stream_t;

typedef struct task {
    task_kind_t kind;
    struct task *next;
    uint64_t seq;                /* queue order over all streams */
    uint64_t not_before;         /* simulated time of the host's last completed wait when it was queued */
    dv_acl_launch_t *launch;     /* T_KERNEL (owned) */
    dv_acl_copy_t copy;          /* T_COPY */
    dv_acl_event_t *event;       /* T_RECORD, T_WAIT: an event; T_NOTIFY_*: a notify (a reference) */
    uint64_t wait_seq;           /* T_WAIT: the record task it waits for (0: none) */
    aclrtCallback fn;            /* T_CALLBACK */
    void *user;
    uint32_t slot;               /* on a tape: the captured stream it was queued on (0: the origin) */
    uint32_t thread_id;          /* the host thread that queued it (thread_id()) */
} task_t;

struct dv_acl_stream {
    uint32_t magic;
    uint32_t id;
    task_t *head, *tail;
    uint64_t ready;              /* cycle its last task finished */
    uint64_t failure_mode;
    uint32_t priority, flags;    /* as aclrtCreateStreamWithConfig gave them */
    dv_acl_tape_t *tape;         /* the capture its tasks go to (NULL: not capturing) */
    uint32_t slot;               /* its stream slot on that tape */
    struct dv_acl_stream *next;
};

/* An event (EVENT_MAGIC) or a notify (NOTIFY_MAGIC: set by a record task, cleared by the wait
 * task it releases); both are handles to a point in a stream that other streams wait for, and share
 * the list, the references of queued tasks and the handle checks. */
struct dv_acl_event {
    uint32_t magic;
    uint32_t refs;               /* the handle (until destroyed) + tasks referring to it */
    uint64_t queued_seq;         /* event: last record task queued */
    uint64_t done_seq;           /* event: last record task run */
    uint64_t cycle;              /* its time (notify: when it was last set) */
    dv_acl_tape_t *tape;         /* event: its last record was captured on this tape (NULL: queued live) */
    uint32_t id;                 /* notify: aclrtGetNotifyId */
    bool set;                    /* notify: recorded and not yet waited for */
    dv_acl_event_t *next;
};

#define NOTIFY_MAGIC 0x2071F7u
#define STREAM_MAGIC 0x57AE4Au
#define EVENT_MAGIC 0xE7E47u

enum { ENG_COMPUTE, ENG_H2D, ENG_D2H, ENG_D2D, ENG_COUNT };

static struct {
    dv_acl_stream_t *streams;    /* the default stream (id 0) first when it exists */
    dv_acl_stream_t *dflt;
    dv_acl_event_t *events;      /* events and notifies */
    uint32_t next_notify_id;
    dv_acl_tape_t *tapes;        /* every capture, live or ended */
    uint32_t next_id;
    uint64_t seq;
    uint64_t engine_free[ENG_COUNT];
    uint64_t host_time;          /* the simulated time the host last waited for: later work starts after it */
    int deferred_rc;             /* a task failure no synchronising call has returned yet */
    aclrtErrorType last_error;   /* the kind of the last task failure (aclrtGetErrorVerbose) */
    char deferred_msg[1024];
    bool draining;
} g_st;

/* aclrtSubscribeReport's subscriptions: a thread named for a stream. */
#define REPORT_SUBS 64
static struct {
    uint64_t thread;
    dv_acl_stream_t *stream;
} g_subs[REPORT_SUBS];

/* ---------------------------------------------------------------- tasks */

static void launch_free(dv_acl_launch_t *l)
{
    if (!l)
        return;
    if (l->kernel && l->kernel_destroy)
        l->kernel_destroy(l->kernel);
    free(l);
}

static void event_unref(dv_acl_event_t *e)
{
    if (e && --e->refs == 0) {
        dv_acl_event_t **pp = &g_st.events;
        while (*pp && *pp != e)
            pp = &(*pp)->next;
        if (*pp)
            *pp = e->next;
        free(e);
    }
}

static void task_free(task_t *t)
{
    launch_free(t->launch);
    event_unref(t->event);
    free(t);
}

static dv_acl_stream_t *stream_new(void)
{
    dv_acl_stream_t *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->magic = STREAM_MAGIC;
    s->id = g_st.next_id++;
    dv_acl_stream_t **pp = &g_st.streams;
    while (*pp)
        pp = &(*pp)->next;
    *pp = s;
    return s;
}

/* The stream a handle names (NULL: the default stream, created on first use). */
static int stream_get(aclrtStream stream, const char *api, dv_acl_stream_t **out)
{
    if (!stream) {
        if (!g_st.dflt && !(g_st.dflt = stream_new()))
            return dv_acl_fail(ACL_ERROR_BAD_ALLOC, "%s: out of memory", api);
        *out = g_st.dflt;
        return ACL_SUCCESS;
    }
    for (dv_acl_stream_t *s = g_st.streams; s; s = s->next)
        if (s == stream && s->magic == STREAM_MAGIC) {
            *out = s;
            return ACL_SUCCESS;
        }
    return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: %p is not a live stream", api, stream);
}

static void tape_append(dv_acl_tape_t *tp, uint32_t slot, task_t *t);

/* Host threads numbered from 1 as they first queue work (the exception info's thread id). */
static _Thread_local uint32_t t_thread_id;
static uint32_t g_threads;
/* The seq of the last task the thread queued, in session t_last_session (aclrtGetThreadLastTaskId). */
static _Thread_local uint64_t t_last_seq, t_last_session;
static uint64_t g_session = 1; /* counts dv_acl_streams_reset: seq starts again after it */

static uint32_t thread_id(void)
{
    if (!t_thread_id)
        t_thread_id = ++g_threads;
    return t_thread_id;
}

/* Queue t on s, or put it on s's tape while s is capturing. */
static void enqueue_on(dv_acl_stream_t *s, task_t *t)
{
    t->seq = ++g_st.seq;
    t->thread_id = thread_id();
    t_last_seq = t->seq;
    t_last_session = g_session;
    t->not_before = g_st.host_time;
    if (s->tape) {
        tape_append(s->tape, s->slot, t);
        return;
    }
    if (s->tail)
        s->tail->next = t;
    else
        s->head = t;
    s->tail = t;
}

static int enqueue(aclrtStream stream, const char *api, task_t *t)
{
    dv_acl_stream_t *s = NULL;
    int rc = stream_get(stream, api, &s);
    if (rc != ACL_SUCCESS) {
        task_free(t);
        return rc;
    }
    enqueue_on(s, t);
    return ACL_SUCCESS;
}

static task_t *task_new(task_kind_t kind, const char *api)
{
    task_t *t = calloc(1, sizeof *t);
    if (!t)
        dv_acl_fail(ACL_ERROR_BAD_ALLOC, "%s: out of memory", api);
    else
        t->kind = kind;
    return t;
}

/* ---------------------------------------------------------------- capture (tapes)
 * While a stream captures, enqueue_on puts its tasks on a tape instead of its queue; a stream that
 * waits on an event recorded on a tape joins that tape in a new slot.  Replaying copies the tape's
 * tasks, in their capture order, onto the stream given (slot 0) and the tape's own internal streams
 * (slots 1..), so event waits refer to the records of the same replay.  A replayed kernel borrows
 * the tape's kernel object (kernel_destroy NULL): dv_acl_tape_free drains before freeing it. */

struct dv_acl_tape {
    task_t *head, *tail;
    uint32_t ntasks;
    uint32_t nslots;
    dv_acl_stream_t *slot[DV_ACL_TAPE_SLOTS];  /* while capturing: the user streams of each slot */
    uint32_t slot_id[DV_ACL_TAPE_SLOTS];       /* their stream ids, for the JSON */
    dv_acl_stream_t *inner[DV_ACL_TAPE_SLOTS]; /* after the end: the streams slots 1.. replay on */
    aclmdlRICaptureMode mode;
    pthread_t thread;
    bool capturing;
    dv_acl_tape_t *next;
};

static void tape_append(dv_acl_tape_t *tp, uint32_t slot, task_t *t)
{
    t->slot = slot;
    if (tp->tail)
        tp->tail->next = t;
    else
        tp->head = t;
    tp->tail = t;
    tp->ntasks++;
}

/* The calling thread's capture interaction mode (aclmdlRICaptureThreadExchangeMode; GLOBAL, 0, by
 * default). */
static _Thread_local aclmdlRICaptureMode t_capture_mode;

aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode)
{
    DV_ACL_LOCKED();
    if (!mode)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclmdlRICaptureThreadExchangeMode: mode is NULL");
    if ((unsigned)*mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclmdlRICaptureThreadExchangeMode: unknown mode %d", (int)*mode);
    aclmdlRICaptureMode old = t_capture_mode;
    t_capture_mode = *mode;
    *mode = old;
    return ACL_SUCCESS;
}

/* A non-RELAXED capture forbids synchronising calls (GLOBAL: from any thread; THREAD_LOCAL: from
 * the thread that began it), as CANN's runtime does, unless the calling thread's own mode lets it:
 * RELAXED never forbids, THREAD_LOCAL only for a capture the thread began. */
int dv_acl_capture_forbids(const char *api)
{
    if (t_capture_mode == ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
        return ACL_SUCCESS;
    for (dv_acl_tape_t *tp = g_st.tapes; tp; tp = tp->next)
        if (tp->capturing && ((tp->mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL &&
                               (t_capture_mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL ||
                                pthread_equal(tp->thread, pthread_self()))) ||
                              (tp->mode == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL &&
                               pthread_equal(tp->thread, pthread_self()))))
            return dv_acl_fail(ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC,
                               "%s: stream %u is capturing (aclmdlRICaptureBegin, mode %s): synchronising calls "
                               "are not allowed until aclmdlRICaptureEnd", api, tp->slot_id[0],
                               tp->mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL ? "GLOBAL" : "THREAD_LOCAL");
    return ACL_SUCCESS;
}

/* Stream s waits on an event recorded on tape tp: s joins the capture. */
static int tape_join(dv_acl_tape_t *tp, dv_acl_stream_t *s, const char *api)
{
    if (!tp->capturing)
        return ACL_SUCCESS;
    if (s->tape)
        return dv_acl_fail(ACL_ERROR_RT_CAPTURE_DEPENDENCY,
                           "%s: stream %u captures into one model instance and the event was recorded in another",
                           api, s->id);
    if (tp->nslots == DV_ACL_TAPE_SLOTS)
        return dv_acl_fail(ACL_ERROR_RT_NO_STREAM_RESOURCE, "%s: a capture joins at most %d streams", api,
                           DV_ACL_TAPE_SLOTS);
    s->tape = tp;
    s->slot = tp->nslots;
    tp->slot[tp->nslots] = s;
    tp->slot_id[tp->nslots++] = s->id;
    return ACL_SUCCESS;
}

int dv_acl_tape_begin(aclrtStream stream, aclmdlRICaptureMode mode, const char *api, dv_acl_tape_t **out)
{
    dv_acl_stream_t *s = NULL;
    if (!stream)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: the default stream cannot capture; use a created stream", api);
    int rc = stream_get(stream, api, &s);
    if (rc != ACL_SUCCESS)
        return rc;
    if (s->tape)
        return dv_acl_fail(ACL_ERROR_RT_STREAM_CAPTURED, "%s: stream %u is already capturing", api, s->id);
    dv_acl_tape_t *tp = calloc(1, sizeof *tp);
    if (!tp)
        return dv_acl_fail(ACL_ERROR_BAD_ALLOC, "%s: out of memory", api);
    if ((rc = dv_acl_handle_add(tp, DV_ACL_MAGIC_RI)) != ACL_SUCCESS) {
        free(tp);
        return rc;
    }
    tp->mode = mode;
    tp->thread = pthread_self();
    tp->capturing = true;
    tp->nslots = 1;
    tp->slot[0] = s;
    tp->slot_id[0] = s->id;
    tp->next = g_st.tapes;
    g_st.tapes = tp;
    s->tape = tp;
    s->slot = 0;
    *out = tp;
    return ACL_SUCCESS;
}

dv_acl_tape_t *dv_acl_tape_of(aclrtStream stream, const char *api, int *rc)
{
    dv_acl_stream_t *s = NULL;
    *rc = stream_get(stream, api, &s);
    return *rc == ACL_SUCCESS ? s->tape : NULL;
}

/* The first slot (1..) whose last task is not a record that the origin stream waits on later. */
static uint32_t tape_unjoined(const dv_acl_tape_t *tp)
{
    for (uint32_t k = 1; k < tp->nslots; k++) {
        const task_t *last = NULL, *joined = NULL;
        for (const task_t *t = tp->head; t; t = t->next)
            if (t->slot == k)
                last = t;
        for (const task_t *t = last ? last->next : NULL; t && last->kind == T_RECORD && !joined; t = t->next)
            if (t->slot == 0 && t->kind == T_WAIT && t->event == last->event)
                joined = t;
        if (!joined)
            return k;
    }
    return 0;
}

static void tape_release(dv_acl_tape_t *tp, bool inner_streams);

int dv_acl_tape_end(aclrtStream stream, const char *api, dv_acl_tape_t **out)
{
    dv_acl_stream_t *s = NULL;
    int rc = stream ? stream_get(stream, api, &s) : dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: stream is NULL", api);
    if (rc != ACL_SUCCESS)
        return rc;
    dv_acl_tape_t *tp = s->tape;
    if (!tp)
        return dv_acl_fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: stream %u is not capturing", api, s->id);
    if (s->slot != 0)
        return dv_acl_fail(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED,
                           "%s: stream %u joined the capture begun on stream %u; end it there", api, s->id,
                           tp->slot_id[0]);
    if (tp->mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED && !pthread_equal(tp->thread, pthread_self()))
        return dv_acl_fail(ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD,
                           "%s: the capture on stream %u was begun on another thread", api, s->id);
    uint32_t k = tape_unjoined(tp);
    for (uint32_t i = 0; i < tp->nslots; i++)
        tp->slot[i]->tape = NULL;
    for (dv_acl_event_t *e = g_st.events; e; e = e->next)
        if (e->tape == tp)
            e->tape = NULL;
    tp->capturing = false;
    if (k) {
        rc = dv_acl_fail(ACL_ERROR_RT_STREAM_UNJOINED,
                         "%s: stream %u joined the capture but its work is not joined back: record an event on it "
                         "after its last task and wait for that event on stream %u", api, tp->slot_id[k],
                         tp->slot_id[0]);
        tape_release(tp, true);
        return rc;
    }
    for (uint32_t i = 1; i < tp->nslots; i++)
        if (!(tp->inner[i] = stream_new())) {
            tape_release(tp, true);
            return dv_acl_fail(ACL_ERROR_BAD_ALLOC, "%s: out of memory", api);
        }
    *out = tp;
    return ACL_SUCCESS;
}

bool dv_acl_tape_capturing(const dv_acl_tape_t *tp)
{
    return tp->capturing;
}

int dv_acl_tape_replay(dv_acl_tape_t *tp, aclrtStream stream, const char *api)
{
    dv_acl_stream_t *s0 = NULL;
    int rc = stream_get(stream, api, &s0);
    if (rc != ACL_SUCCESS)
        return rc;
    if (s0->tape)
        return dv_acl_fail(ACL_ERROR_RT_STREAM_CAPTURED,
                           "%s: stream %u is capturing; a model instance cannot be executed into a capture", api,
                           s0->id);
    for (const task_t *r = tp->head; r; r = r->next) {
        task_t *t = task_new(r->kind, api);
        if (!t)
            return ACL_ERROR_BAD_ALLOC;
        t->copy = r->copy;
        t->fn = r->fn;
        t->user = r->user;
        if (r->launch) {
            if (!(t->launch = malloc(sizeof *t->launch))) {
                free(t);
                return dv_acl_fail(ACL_ERROR_BAD_ALLOC, "%s: out of memory", api);
            }
            *t->launch = *r->launch;
            t->launch->kernel_destroy = NULL; /* borrowed from the tape */
        }
        if (r->event) {
            t->event = r->event;
            t->event->refs++;
            t->wait_seq = t->event->queued_seq;
        }
        enqueue_on(r->slot ? tp->inner[r->slot] : s0, t);
        if (t->kind == T_RECORD)
            t->event->queued_seq = t->seq;
    }
    return ACL_SUCCESS;
}

static void tape_release(dv_acl_tape_t *tp, bool inner_streams)
{
    dv_acl_tape_t **pp = &g_st.tapes;
    while (*pp && *pp != tp)
        pp = &(*pp)->next;
    if (*pp)
        *pp = tp->next;
    while (tp->head) {
        task_t *t = tp->head;
        tp->head = t->next;
        task_free(t);
    }
    for (uint32_t i = 1; inner_streams && i < tp->nslots; i++) {
        dv_acl_stream_t **sp = &g_st.streams;
        while (tp->inner[i] && *sp && *sp != tp->inner[i])
            sp = &(*sp)->next;
        if (tp->inner[i] && *sp) {
            *sp = tp->inner[i]->next;
            free(tp->inner[i]);
        }
    }
    dv_acl_handle_del(tp);
    free(tp);
}

void dv_acl_tape_free(dv_acl_tape_t *tp)
{
    dv_acl_drain(); /* replays borrow its kernels; a failure is for the next synchronisation */
    tape_release(tp, true);
}

void dv_acl_tape_visit(const dv_acl_tape_t *tp, void (*fn)(void *ctx, const dv_acl_tape_item_t *it), void *ctx)
{
    static const char *const kinds[] = {"KERNEL", "MEMCPY", "EVENT_RECORD", "EVENT_WAIT", "CALLBACK",
                                        "NOTIFY_RECORD", "NOTIFY_WAIT"};
    uint32_t i = 0;
    for (const task_t *t = tp->head; t; t = t->next, i++) {
        dv_acl_tape_item_t it = {i, kinds[t->kind], t->slot, tp->slot_id[t->slot], t->launch, NULL, 0};
        if (t->kind == T_COPY) {
            it.copy = &t->copy;
            it.kind = t->copy.memset ? "MEMSET" : "MEMCPY";
        }
        if (t->event) {
            uint32_t n = 0; /* events are numbered by first appearance on the tape */
            const dv_acl_event_t *seen[64];
            for (const task_t *u = tp->head; u; u = u->next)
                if (u->event) {
                    uint32_t j = 0;
                    while (j < n && seen[j] != u->event)
                        j++;
                    if (j == n && n < 64)
                        seen[n++] = u->event;
                    if (u->event == t->event) {
                        it.event = j + 1;
                        break;
                    }
                }
        }
        fn(ctx, &it);
    }
}

/* ---------------------------------------------------------------- kernel arguments */

/* The byte range a view touches, checked to lie in one allocation. */
static int view_range(const dv_acl_view_t *v, const char *what, uint8_t **host, uint64_t *lo_off, uint64_t *span)
{
    unsigned es = dv_dtype_size(v->dtype);
    int64_t lo = 0, hi = 0;
    for (int d = 0; d < v->ndims; d++) {
        if (v->dims[d] == 0) {
            *span = 0;
            return dv_acl_mem_find(v->dev, what, host, NULL);
        }
        int64_t ext = (v->dims[d] - 1) * v->strides[d];
        if (ext < 0)
            lo += ext;
        else
            hi += ext;
    }
    uint64_t first = v->dev + (uint64_t)lo * es;
    uint64_t avail = 0;
    int rc = dv_acl_mem_find(first, what, host, &avail);
    *lo_off = (uint64_t)(-lo) * es;
    *span = (uint64_t)(hi - lo + 1) * es;
    if (rc == ACL_SUCCESS && *span > avail)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM,
                         "%s spans %llu bytes from 0x%llx but its allocation has %llu bytes left there", what,
                         (unsigned long long)*span, (unsigned long long)first, (unsigned long long)avail);
    return rc;
}

int dv_acl_view_check(const dv_acl_view_t *v, const char *what)
{
    uint8_t *host;
    uint64_t lo = 0, span = 0;
    return view_range(v, what, &host, &lo, &span);
}

/* Copy between a view (base = host address of its element 0) and a contiguous buffer. */
static void view_move(const dv_acl_view_t *v, uint8_t *base, uint8_t *buf, bool gather)
{
    unsigned es = dv_dtype_size(v->dtype);
    uint64_t n = 1;
    int64_t idx[DV_ACL_MAX_DIMS] = {0};
    bool contiguous = true;
    for (int d = v->ndims - 1; d >= 0; d--) {
        contiguous = contiguous && (v->dims[d] == 1 || v->strides[d] == (int64_t)n);
        n *= (uint64_t)v->dims[d];
    }
    if (contiguous) { /* the common case: one block */
        if (gather)
            memcpy(buf, base, n * es);
        else
            memcpy(base, buf, n * es);
        return;
    }
    for (uint64_t i = 0; i < n; i++) {
        int64_t off = 0;
        for (int d = 0; d < v->ndims; d++)
            off += idx[d] * v->strides[d];
        if (gather)
            memcpy(buf + i * es, base + off * (int64_t)es, es);
        else
            memcpy(base + off * (int64_t)es, buf + i * es, es);
        for (int d = v->ndims - 1; d >= 0; d--) {
            if (++idx[d] < v->dims[d])
                break;
            idx[d] = 0;
        }
    }
}

static int args_check(const dv_acl_launch_t *l, const char *api)
{
    char what[160];
    for (uint32_t i = 0; i < l->nargs; i++) {
        const dv_acl_karg_t *a = &l->arg[i];
        snprintf(what, sizeof what, "%s: argument %u ('%s')", api, i, l->kernel->info.args[i].name);
        uint8_t *host;
        uint64_t lo = 0, span = 0, avail = 0;
        int rc = a->staged ? view_range(&a->view, what, &host, &lo, &span)
                           : dv_acl_mem_find(a->dev, what, &host, &avail);
        if (rc != ACL_SUCCESS)
            return rc;
        if (!a->staged && avail < a->bytes)
            return dv_acl_fail(ACL_ERROR_INVALID_PARAM,
                               "%s needs %llu bytes from 0x%llx but its allocation has %llu bytes left there", what,
                               (unsigned long long)a->bytes, (unsigned long long)a->dev, (unsigned long long)avail);
    }
    return ACL_SUCCESS;
}

/* ---------------------------------------------------------------- running tasks */

static int model_error_code(const dv_acl_launch_t *l, const dv_error_t *err)
{
    if (err->code == DV_ERR_DEADLOCK)
        return ACL_ERROR_RT_AICORE_TIMEOUT;
    const dv_config_t *cfg = dv_acl_config();
    return cfg->chip_layout == DV_LAYOUT_SPLIT && l->kernel->info.kind == DV_KIND_VECTOR
               ? ACL_ERROR_RT_VECTOR_CORE_EXCEPTION
               : ACL_ERROR_RT_AICORE_EXCEPTION;
}

/* Stage the arguments, run the model, write the staged outputs back.  On failure no staged output
 * is written (raw arguments hold whatever the kernel wrote before it failed, as on hardware). */
static int run_kernel(dv_acl_stream_t *s, dv_acl_launch_t *l, uint64_t start, uint64_t *end)
{
    uint32_t n = l->nargs;
    uint8_t *data[DV_ACL_MAX_KARGS] = {0}, *base[DV_ACL_MAX_KARGS] = {0};
    uint64_t bytes[DV_ACL_MAX_KARGS], addr[DV_ACL_MAX_KARGS];
    bool owned[DV_ACL_MAX_KARGS] = {0};
    dv_acl_hot_t *hot = NULL;
    dv_gm_t gm = {n, data, bytes, addr};
    dv_counters_t cnt;
    dv_error_t err;
    dv_run_opts_t ro;
    char what[160];
    int rc = ACL_SUCCESS;
    snprintf(what, sizeof what, "kernel '%s' on stream %u", l->kernel->info.name, s->id);
    if ((rc = args_check(l, what)) != ACL_SUCCESS)
        return rc;
    for (uint32_t i = 0; i < n; i++) {
        dv_acl_karg_t *a = &l->arg[i];
        bytes[i] = a->bytes;
        if (!a->staged) {
            dv_acl_mem_find(a->dev, what, &data[i], NULL);
            addr[i] = a->dev;
            continue;
        }
        uint64_t lo = 0, span = 0;
        view_range(&a->view, what, &base[i], &lo, &span);
        base[i] += lo; /* element 0 */
        addr[i] = a->view.dev;
        if (!(data[i] = calloc(a->bytes ? a->bytes : 1, 1))) {
            rc = dv_acl_fail(ACL_ERROR_BAD_ALLOC, "%s: cannot stage argument %u (%llu bytes)", what, i,
                             (unsigned long long)a->bytes);
            goto cleanup;
        }
        owned[i] = true;
        if (a->dir != DV_ARG_OUT)
            view_move(&a->view, base[i], data[i], true);
    }
    dv_run_opts_default(&ro);
    ro.warm_up = dv_acl_warm_up(); /* DVSIM_WARM_UP: a profiler's warm-up and replay on the same memory */
    hot = dv_acl_prof_running() ? calloc(1, sizeof *hot) : NULL;
    if (hot) {
        ro.on_slice = dv_acl_hot_slice;
        ro.slice_ctx = hot;
        if ((rc = dv_acl_prof_pipes_open(hot, l->op_name, what)) != ACL_SUCCESS)
            goto cleanup;
    }
    dv_model_t *model = dv_acl_model(&err);
    if (!model) {
        rc = dv_acl_fail_err(ACL_ERROR_RT_INTERNAL_ERROR, what, &err);
        goto cleanup;
    }
    if (dv_model_run(model, l->kernel, &gm, &ro, &cnt, &err) != DV_OK) {
        rc = dv_acl_fail_err(model_error_code(l, &err), what, &err);
        goto cleanup;
    }
    if ((rc = dv_acl_prof_pipes_close(hot, true, what)) != ACL_SUCCESS) {
        dv_counters_free(&cnt);
        goto cleanup;
    }
    for (uint32_t i = 0; i < n; i++)
        if (owned[i] && l->arg[i].dir != DV_ARG_IN)
            view_move(&l->arg[i].view, base[i], data[i], false);
    *end = start + cnt.cycles;
    dv_acl_task_record_t r = {"kernel", l->op_name, s->id, start, *end, start - s->ready, l, &cnt, hot, 0};
    dv_acl_prof_task(&r);
    dv_counters_free(&cnt);

cleanup:
    dv_acl_prof_pipes_close(hot, false, what); /* a failed run leaves no timeline */
    for (uint32_t i = 0; i < n; i++)
        if (owned[i])
            free(data[i]);
    free(hot);
    return rc;
}

static int copy_engine(const dv_acl_copy_t *c)
{
    return c->kind == ACL_MEMCPY_HOST_TO_DEVICE ? ENG_H2D : c->kind == ACL_MEMCPY_DEVICE_TO_HOST ? ENG_D2H : ENG_D2D;
}

static uint64_t copy_cycles(const dv_acl_copy_t *c)
{
    const dv_config_t *cfg = dv_acl_config();
    if (c->kind == ACL_MEMCPY_HOST_TO_HOST)
        return 0;
    if (c->kind == ACL_MEMCPY_DEVICE_TO_DEVICE) /* memset writes once, a copy reads and writes */
        return cfg->host_copy_start_cycles + dv_ceil_div(c->bytes * (c->memset ? 1 : 2), dv_hbm_sustained_bytes_per_cycle(cfg));
    return cfg->host_copy_start_cycles + dv_ceil_div(c->bytes, cfg->host_link_bytes_per_cycle);
}

/* When task t of stream s could start, or false when it must wait for an event. */
static bool task_start(const dv_acl_stream_t *s, const task_t *t, uint64_t *start)
{
    uint64_t at = s->ready > t->not_before ? s->ready : t->not_before;
    if (t->kind == T_WAIT) {
        if (t->wait_seq && t->event->done_seq < t->wait_seq)
            return false;
        if (t->wait_seq && t->event->cycle > at)
            at = t->event->cycle;
    } else if (t->kind == T_NOTIFY_WAIT) {
        if (!t->event->set)
            return false;
        if (t->event->cycle > at)
            at = t->event->cycle;
    } else if (t->kind == T_KERNEL && g_st.engine_free[ENG_COMPUTE] > at) {
        at = g_st.engine_free[ENG_COMPUTE];
    } else if (t->kind == T_COPY && t->copy.kind != ACL_MEMCPY_HOST_TO_HOST &&
               g_st.engine_free[copy_engine(&t->copy)] > at) {
        at = g_st.engine_free[copy_engine(&t->copy)];
    }
    *start = at;
    return true;
}

static int task_run(dv_acl_stream_t *s, task_t *t, uint64_t start)
{
    uint64_t end = start;
    int rc = ACL_SUCCESS;
    switch (t->kind) {
    case T_KERNEL:
        rc = run_kernel(s, t->launch, start, &end);
        if (rc == ACL_SUCCESS)
            g_st.engine_free[ENG_COMPUTE] = end;
        else if (!getenv("DVSIM_QUIET")) /* programs that ignore the synchronising call's code see why */
            fprintf(stderr, "dvsim: [ERROR] %s\n", aclGetRecentErrMsg());
        break;
    case T_COPY:
        rc = dv_acl_copy_do(&t->copy);
        if (rc == ACL_SUCCESS && t->copy.kind != ACL_MEMCPY_HOST_TO_HOST) {
            end = start + copy_cycles(&t->copy);
            g_st.engine_free[copy_engine(&t->copy)] = end;
            dv_acl_task_record_t r = {t->copy.memset ? "memset" : "memcpy",
                                      t->copy.memset                                 ? "aclrtMemset"
                                      : t->copy.kind == ACL_MEMCPY_HOST_TO_DEVICE    ? "MemcpyHostToDevice"
                                      : t->copy.kind == ACL_MEMCPY_DEVICE_TO_HOST    ? "MemcpyDeviceToHost"
                                                                                     : "MemcpyDeviceToDevice",
                                      s->id, start, end, start - s->ready, NULL, NULL, NULL, t->copy.bytes};
            dv_acl_prof_task(&r);
        }
        break;
    case T_RECORD:
        t->event->done_seq = t->seq;
        t->event->cycle = start;
        break;
    case T_WAIT:
        break;
    case T_NOTIFY_RECORD:
        t->event->set = true;
        t->event->cycle = start;
        break;
    case T_NOTIFY_WAIT:
        t->event->set = false;
        break;
    case T_CALLBACK:
        t->fn(t->user);
        break;
    }
    if (rc == ACL_SUCCESS)
        s->ready = end;
    return rc;
}

int dv_acl_refuse_while_draining(const char *api)
{
    if (!g_st.draining)
        return ACL_SUCCESS;
    return dv_acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                       "%s: not allowed in a host callback (aclrtLaunchCallback) or a kernel: the streams are running "
                       "it; call it after the synchronising call returns", api);
}

/* Free the streams aclrtDestroyStreamForce released once their queued work has run. */
static void sweep_released(void)
{
    dv_acl_stream_t **pp = &g_st.streams;
    while (*pp) {
        dv_acl_stream_t *s = *pp;
        if (s->magic == 0 && !s->head) {
            *pp = s->next;
            free(s);
        } else {
            pp = &s->next;
        }
    }
}

/* ---------------------------------------------------------------- task failures */

struct aclrtExceptionInfo {
    uint32_t task_id, stream_id, thread_id, device_id, error_code;
};

#define EXC_CBS 8
static aclrtExceptionInfoCallback g_exc_set;          /* aclrtSetExceptionInfoCallback's */
static aclrtExceptionInfoCallback g_exc_cbs[EXC_CBS]; /* aclrtExceptionInfoCallbackRegister's */

/* Record the failure of t (on s, with code rc) and tell the exception callbacks; the failure's
 * message stays the recent one whatever they call. */
static void task_failed(const dv_acl_stream_t *s, const task_t *t, int rc)
{
    struct aclrtExceptionInfo info = {(uint32_t)t->seq, s->id, t->thread_id, 0, (uint32_t)rc};
    g_st.last_error = rc == ACL_ERROR_RT_AICORE_EXCEPTION || rc == ACL_ERROR_RT_VECTOR_CORE_EXCEPTION ||
                              rc == ACL_ERROR_RT_AICORE_TIMEOUT
                          ? ACL_RT_ERROR_AICORE
                          : ACL_RT_ERROR_OTHERS;
    if (!g_exc_set && !g_exc_cbs[0])
        return;
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", aclGetRecentErrMsg());
    if (g_exc_set)
        g_exc_set(&info);
    for (int i = 0; i < EXC_CBS && g_exc_cbs[i]; i++)
        g_exc_cbs[i](&info);
    dv_acl_restore_msg(msg);
}

aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback)
{
    DV_ACL_LOCKED();
    g_exc_set = callback;
    return ACL_SUCCESS;
}

aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback)
{
    DV_ACL_LOCKED();
    int i = 0;
    if (!callback)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtExceptionInfoCallbackRegister: callback is NULL");
    for (; i < EXC_CBS && g_exc_cbs[i]; i++)
        if (g_exc_cbs[i] == callback)
            return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtExceptionInfoCallbackRegister: callback is registered already");
    if (i == EXC_CBS)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclrtExceptionInfoCallbackRegister: %d callbacks are registered already (unregister one first)",
                           EXC_CBS);
    g_exc_cbs[i] = callback;
    return ACL_SUCCESS;
}

aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback)
{
    DV_ACL_LOCKED();
    for (int i = 0; i < EXC_CBS && g_exc_cbs[i]; i++)
        if (g_exc_cbs[i] == callback) {
            memmove(&g_exc_cbs[i], &g_exc_cbs[i + 1], (size_t)(EXC_CBS - 1 - i) * sizeof g_exc_cbs[0]);
            g_exc_cbs[EXC_CBS - 1] = NULL;
            return ACL_SUCCESS;
        }
    return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtExceptionInfoCallbackUnregister: callback is not registered");
}

#define EXC_FIELD(fn, field)                                                                                           \
    uint32_t fn(const aclrtExceptionInfo *info) { return info ? info->field : UINT32_MAX; }
EXC_FIELD(aclrtGetTaskIdFromExceptionInfo, task_id)
EXC_FIELD(aclrtGetStreamIdFromExceptionInfo, stream_id)
EXC_FIELD(aclrtGetThreadIdFromExceptionInfo, thread_id)
EXC_FIELD(aclrtGetDeviceIdFromExceptionInfo, device_id)
EXC_FIELD(aclrtGetErrorCodeFromExceptionInfo, error_code)

#define EXC_ARGS "the simulated kernel's arguments and function are not kept on the device"

aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo *info, void **devArgsPtr, uint32_t *devArgsLen)
{
    DV_ACL_LOCKED();
    if (!info || !devArgsPtr || !devArgsLen)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetArgsFromExceptionInfo: NULL argument");
    return dv_acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtGetArgsFromExceptionInfo: not supported: " EXC_ARGS);
}

aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo *info, aclrtFuncHandle *func)
{
    DV_ACL_LOCKED();
    if (!info || !func)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetFuncHandleFromExceptionInfo: NULL argument");
    return dv_acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtGetFuncHandleFromExceptionInfo: not supported: " EXC_ARGS);
}

aclError aclrtGetThreadLastTaskId(uint32_t *taskId)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_device("aclrtGetThreadLastTaskId");
    if (rc == ACL_SUCCESS && !taskId)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetThreadLastTaskId: taskId is NULL");
    if (rc == ACL_SUCCESS && (!t_last_seq || t_last_session != g_session))
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetThreadLastTaskId: this thread has queued no task since aclrtSetDevice");
    if (rc == ACL_SUCCESS)
        *taskId = (uint32_t)t_last_seq;
    return rc;
}

aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo *errorInfo)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_device("aclrtGetErrorVerbose");
    if (rc == ACL_SUCCESS && deviceId != 0)
        rc = dv_acl_fail(ACL_ERROR_RT_INVALID_DEVICEID, "aclrtGetErrorVerbose: device %d does not exist (dvsim simulates device 0)",
                         deviceId);
    if (rc == ACL_SUCCESS && !errorInfo)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetErrorVerbose: errorInfo is NULL");
    if (rc != ACL_SUCCESS)
        return rc;
    memset(errorInfo, 0, sizeof *errorInfo);
    errorInfo->errorType = g_st.last_error; /* ACL_RT_NO_ERROR (0) until a task fails */
    if (g_st.last_error == ACL_RT_ERROR_AICORE) {
        errorInfo->hasDetail = 1;
        errorInfo->detail.aicoreErrType = ACL_RT_AICORE_ERROR_SW;
    }
    return ACL_SUCCESS;
}

/* Run at most max queued tasks (the scheduler's order); *ran counts them.  The first task error is
 * returned (recorded) and kept for the next dv_acl_sync. */
static int run_tasks(uint64_t max, uint64_t *ran)
{
    int first = ACL_SUCCESS;
    *ran = 0;
    if (g_st.draining) /* a host callback synchronising: the outer drain goes on */
        return ACL_SUCCESS;
    g_st.draining = true;
    for (; *ran < max; (*ran)++) {
        dv_acl_stream_t *best = NULL;
        uint64_t best_start = 0, start;
        bool pending = false;
        for (dv_acl_stream_t *s = g_st.streams; s; s = s->next) {
            if (!s->head)
                continue;
            pending = true;
            if (task_start(s, s->head, &start) && (!best || start < best_start)) {
                best = s;
                best_start = start;
            }
        }
        if (!pending)
            break;
        int rc;
        task_t *t;
        if (!best) {
            /* Every queued head is a wait whose record will never run: the record was dropped with
             * its stream's queue (aclrtStreamStop / Abort, a stream that stopped on a failure), or no
             * queued task sets the notify it waits for.  The
             * first such wait fails, as a task that cannot complete (the device would wait for ever),
             * and its stream goes on as its failure mode says. */
            for (best = g_st.streams; !best->head; best = best->next)
                ;
            t = best->head;
            best->head = t->next;
            if (!best->head)
                best->tail = NULL;
            rc = t->kind == T_NOTIFY_WAIT
                     ? dv_acl_fail(ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                                   "stream %u waits (aclrtWaitAndResetNotify) on a notify that no queued task records",
                                   best->id)
                     : dv_acl_fail(ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                                   "stream %u waits (aclrtStreamWaitEvent) on an event record that will never run: its "
                                   "stream was stopped (aclrtStreamStop / aclrtStreamAbort) or after a failed task",
                                   best->id);
        } else {
            t = best->head;
            best->head = t->next;
            if (!best->head)
                best->tail = NULL;
            rc = task_run(best, t, best_start);
        }
        if (rc != ACL_SUCCESS)
            task_failed(best, t, rc);
        task_free(t);
        if (rc != ACL_SUCCESS) {
            if (first == ACL_SUCCESS)
                first = rc;
            if (best->failure_mode == ACL_STOP_ON_FAILURE)
                while (best->head) {
                    t = best->head;
                    best->head = t->next;
                    task_free(t);
                }
            best->tail = best->head ? best->tail : NULL;
        }
    }
    g_st.draining = false;
    sweep_released();
    if (first != ACL_SUCCESS && g_st.deferred_rc == ACL_SUCCESS) {
        g_st.deferred_rc = first;
        snprintf(g_st.deferred_msg, sizeof g_st.deferred_msg, "%s", aclGetRecentErrMsg());
    }
    return first;
}

int dv_acl_drain(void)
{
    uint64_t ran = 0;
    const bool outer = !g_st.draining;
    int rc = run_tasks(UINT64_MAX, &ran);
    /* the host waited for the device: what it queues from now on starts after this (a synchronising
     * call waits for the whole device, a simplification for a single stream's synchronisation) */
    for (dv_acl_stream_t *s = g_st.streams; outer && s; s = s->next)
        if (s->ready > g_st.host_time)
            g_st.host_time = s->ready;
    return rc;
}

/* A status query: the device advances by one task (the next the scheduler would run), so a query
 * reports "not ready" while work is queued before what it asks about, and a polling loop ends.
 * A task's failure is kept for the next synchronising call, as CANN reports it. */
static void query_step(void)
{
    uint64_t ran = 0;
    (void)run_tasks(1, &ran);
}

int dv_acl_sync(void)
{
    dv_acl_drain();
    int rc = g_st.deferred_rc;
    if (rc != ACL_SUCCESS)
        dv_acl_restore_msg(g_st.deferred_msg);
    g_st.deferred_rc = ACL_SUCCESS;
    return rc;
}

void dv_acl_streams_reset(void)
{
    while (g_st.tapes) /* their internal streams go with the others below */
        tape_release(g_st.tapes, false);
    while (g_st.streams) {
        dv_acl_stream_t *s = g_st.streams;
        g_st.streams = s->next;
        while (s->head) {
            task_t *t = s->head;
            s->head = t->next;
            task_free(t);
        }
        s->magic = 0;
        free(s);
    }
    while (g_st.events) {
        dv_acl_event_t *e = g_st.events;
        g_st.events = e->next;
        e->magic = 0;
        free(e);
    }
    memset(&g_st, 0, sizeof g_st);
    memset(g_subs, 0, sizeof g_subs);
    g_session++;
}

/* ---------------------------------------------------------------- queueing */

int dv_acl_enqueue_launch(aclrtStream stream, dv_acl_launch_t *l)
{
    dv_acl_launch_t *copy = malloc(sizeof *copy);
    int rc = ACL_SUCCESS;
    task_t *t = NULL;
    if (!copy) {
        rc = dv_acl_fail(ACL_ERROR_BAD_ALLOC, "launch: out of memory");
        goto fail;
    }
    *copy = *l;
    l->kernel = NULL;
    if (copy->nargs != copy->kernel->info.nargs || copy->nargs > DV_ACL_MAX_KARGS) {
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "launch of '%s': %u arguments given, the kernel has %u",
                         copy->kernel->info.name, copy->nargs, copy->kernel->info.nargs);
        goto fail;
    }
    if ((rc = args_check(copy, copy->op_name[0] ? copy->op_name : copy->kernel->info.name)) != ACL_SUCCESS)
        goto fail;
    if (!(t = task_new(T_KERNEL, "launch"))) {
        rc = ACL_ERROR_BAD_ALLOC;
        goto fail;
    }
    t->launch = copy;
    return enqueue(stream, "launch", t);

fail:
    if (copy)
        launch_free(copy);
    else if (l->kernel && l->kernel_destroy)
        l->kernel_destroy(l->kernel);
    return rc;
}

int dv_acl_enqueue_copy(aclrtStream stream, const dv_acl_copy_t *c, bool sync)
{
    int forbid = sync ? dv_acl_capture_forbids("aclrtMemcpy / aclrtMemset (blocking)") : ACL_SUCCESS;
    if (forbid != ACL_SUCCESS)
        return forbid;
    task_t *t = task_new(T_COPY, "copy");
    if (!t)
        return ACL_ERROR_BAD_ALLOC;
    t->copy = *c;
    int rc = enqueue(stream, "copy", t);
    return rc == ACL_SUCCESS && sync ? dv_acl_sync() : rc;
}

/* ---------------------------------------------------------------- stream state callbacks */

#define STATE_CBS 8
#define STATE_CB_NAME_MAX 64
static struct {
    char name[STATE_CB_NAME_MAX]; /* "" for a free slot */
    aclrtStreamStateCallback fn;
    void *args;
} g_state_cbs[STATE_CBS];

aclError aclrtRegStreamStateCallback(const char *regName, aclrtStreamStateCallback callback, void *args)
{
    DV_ACL_LOCKED();
    if (!regName || !*regName)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtRegStreamStateCallback: regName is NULL or empty");
    if (strlen(regName) >= STATE_CB_NAME_MAX)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtRegStreamStateCallback: regName is longer than %d characters",
                           STATE_CB_NAME_MAX - 1);
    int slot = -1, free_slot = -1;
    for (int i = 0; i < STATE_CBS; i++) {
        if (!strcmp(g_state_cbs[i].name, regName))
            slot = i;
        else if (!g_state_cbs[i].name[0] && free_slot < 0)
            free_slot = i;
    }
    if (!callback) {
        if (slot < 0)
            return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtRegStreamStateCallback: no callback is registered as \"%s\"",
                               regName);
        memset(&g_state_cbs[slot], 0, sizeof g_state_cbs[slot]);
        return ACL_SUCCESS;
    }
    if (slot < 0 && (slot = free_slot) < 0)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclrtRegStreamStateCallback: %d callbacks are registered already (remove one first)",
                           STATE_CBS);
    snprintf(g_state_cbs[slot].name, sizeof g_state_cbs[slot].name, "%s", regName);
    g_state_cbs[slot].fn = callback;
    g_state_cbs[slot].args = args;
    return ACL_SUCCESS;
}

static void stream_state_tell(aclrtStream stream, aclrtStreamState state)
{
    for (int i = 0; i < STATE_CBS; i++)
        if (g_state_cbs[i].name[0])
            g_state_cbs[i].fn(stream, state, g_state_cbs[i].args);
}

/* ---------------------------------------------------------------- streams */

aclError aclrtCreateStream(aclrtStream *stream)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_device("aclrtCreateStream");
    if (rc == ACL_SUCCESS && !stream)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateStream: stream is NULL");
    if (rc != ACL_SUCCESS)
        return rc;
    if (!g_st.dflt && !(g_st.dflt = stream_new())) /* id 0 is the default stream's */
        return dv_acl_fail(ACL_ERROR_BAD_ALLOC, "aclrtCreateStream: out of memory");
    dv_acl_stream_t *s = stream_new();
    if (!s)
        return dv_acl_fail(ACL_ERROR_BAD_ALLOC, "aclrtCreateStream: out of memory");
    *stream = s;
    stream_state_tell(s, ACL_RT_STREAM_STATE_CREATE_POST);
    return ACL_SUCCESS;
}

aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag)
{
    DV_ACL_LOCKED();
    /* kept for the queries; the model has no stream priorities and the flags change no timing */
    int rc = aclrtCreateStream(stream);
    if (rc == ACL_SUCCESS) {
        ((dv_acl_stream_t *)*stream)->priority = priority;
        ((dv_acl_stream_t *)*stream)->flags = flag;
    }
    return rc;
}

static int stream_destroy(aclrtStream stream, const char *api, bool force)
{
    dv_acl_stream_t *s = NULL;
    int rc = dv_acl_check_device(api);
    if (rc == ACL_SUCCESS && !stream)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: stream is NULL", api);
    if (rc == ACL_SUCCESS)
        rc = stream_get(stream, api, &s);
    if (rc == ACL_SUCCESS && s->tape)
        rc = dv_acl_fail(ACL_ERROR_RT_STREAM_CAPTURED, "%s: stream %u is capturing (aclmdlRICaptureEnd first)", api,
                         s->id);
    if (rc != ACL_SUCCESS)
        return rc;
    stream_state_tell(s, ACL_RT_STREAM_STATE_DESTROY_PRE);
    for (int i = 0; i < REPORT_SUBS; i++)
        if (g_subs[i].stream == s)
            memset(&g_subs[i], 0, sizeof g_subs[i]);
    if (force) {
        /* CANN does not wait for the stream's work; the tasks already submitted still run on the
         * device (docs/ACL.md): the stream's handle dies now, its queue when it has run */
        s->magic = 0;
        if (s->head)
            return rc;
    } else {
        dv_acl_drain(); /* its work completes first; a failure is for the next synchronisation */
    }
    dv_acl_stream_t **pp = &g_st.streams;
    while (*pp != s)
        pp = &(*pp)->next;
    *pp = s->next;
    while (s->head) {
        task_t *t = s->head;
        s->head = t->next;
        task_free(t);
    }
    s->magic = 0;
    free(s);
    return rc;
}

aclError aclrtDestroyStream(aclrtStream stream)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_refuse_while_draining("aclrtDestroyStream");
    return rc != ACL_SUCCESS ? rc : stream_destroy(stream, "aclrtDestroyStream", false);
}

aclError aclrtDestroyStreamForce(aclrtStream stream)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_refuse_while_draining("aclrtDestroyStreamForce");
    return rc != ACL_SUCCESS ? rc : stream_destroy(stream, "aclrtDestroyStreamForce", true);
}

aclError aclrtSynchronizeStream(aclrtStream stream)
{
    DV_ACL_LOCKED();
    dv_acl_stream_t *s = NULL;
    int rc = dv_acl_check_device("aclrtSynchronizeStream");
    if (rc == ACL_SUCCESS)
        rc = stream_get(stream, "aclrtSynchronizeStream", &s);
    if (rc == ACL_SUCCESS)
        rc = dv_acl_capture_forbids("aclrtSynchronizeStream");
    return rc == ACL_SUCCESS ? dv_acl_sync() : rc;
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout)
{
    DV_ACL_LOCKED();
    (void)timeout; /* simulated work always completes (or fails) */
    return aclrtSynchronizeStream(stream);
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status)
{
    DV_ACL_LOCKED();
    dv_acl_stream_t *s = NULL;
    int rc = dv_acl_check_device("aclrtStreamQuery");
    if (rc == ACL_SUCCESS && !status)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtStreamQuery: status is NULL");
    if (rc == ACL_SUCCESS)
        rc = stream_get(stream, "aclrtStreamQuery", &s);
    if (rc == ACL_SUCCESS)
        rc = dv_acl_capture_forbids("aclrtStreamQuery");
    if (rc != ACL_SUCCESS)
        return rc;
    if (s->head)
        query_step();
    *status = s->head ? ACL_STREAM_STATUS_NOT_READY : ACL_STREAM_STATUS_COMPLETE;
    return ACL_SUCCESS;
}

aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode)
{
    DV_ACL_LOCKED();
    dv_acl_stream_t *s = NULL;
    int rc = dv_acl_check_device("aclrtSetStreamFailureMode");
    if (rc == ACL_SUCCESS && mode != ACL_CONTINUE_ON_FAILURE && mode != ACL_STOP_ON_FAILURE)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtSetStreamFailureMode: mode %llu is not 0 or 1",
                         (unsigned long long)mode);
    if (rc == ACL_SUCCESS)
        rc = stream_get(stream, "aclrtSetStreamFailureMode", &s);
    if (rc == ACL_SUCCESS)
        s->failure_mode = mode;
    return rc;
}

aclError aclrtSynchronizeDevice(void)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_device("aclrtSynchronizeDevice");
    if (rc == ACL_SUCCESS)
        rc = dv_acl_capture_forbids("aclrtSynchronizeDevice");
    return rc == ACL_SUCCESS ? dv_acl_sync() : rc;
}

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout)
{
    DV_ACL_LOCKED();
    (void)timeout;
    return aclrtSynchronizeDevice();
}

aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType, aclrtStream stream)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_device("aclrtLaunchCallback");
    if (rc == ACL_SUCCESS && !fn)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtLaunchCallback: fn is NULL");
    (void)blockType; /* the callback runs on the host thread that drains, in stream order */
    task_t *t = rc == ACL_SUCCESS ? task_new(T_CALLBACK, "aclrtLaunchCallback") : NULL;
    if (rc == ACL_SUCCESS && !t)
        rc = ACL_ERROR_BAD_ALLOC;
    if (rc != ACL_SUCCESS)
        return rc;
    t->fn = fn;
    t->user = userData;
    return enqueue(stream, "aclrtLaunchCallback", t);
}

/* ---------------------------------------------------------------- events */

/* The live event (magic EVENT_MAGIC) or notify (NOTIFY_MAGIC) a handle names. */
static int sync_get(const void *handle, uint32_t magic, const char *api, dv_acl_event_t **out)
{
    for (dv_acl_event_t *e = g_st.events; handle && e; e = e->next)
        if (e == handle && e->magic == magic) {
            *out = e;
            return ACL_SUCCESS;
        }
    return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: %p is not a live %s", api, handle,
                       magic == EVENT_MAGIC ? "event" : "notify");
}

static int event_get(aclrtEvent event, const char *api, dv_acl_event_t **out)
{
    return sync_get(event, EVENT_MAGIC, api, out);
}

/* A new event or notify, on the list with the handle's reference. */
static dv_acl_event_t *sync_new(uint32_t magic)
{
    dv_acl_event_t *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->magic = magic;
    e->refs = 1;
    e->next = g_st.events;
    g_st.events = e;
    return e;
}

/* aclrtDestroyEvent / aclrtDestroyNotify: the handle dies; queued tasks keep their reference. */
static int sync_destroy(const void *handle, uint32_t magic, const char *api)
{
    dv_acl_event_t *e = NULL;
    int rc = dv_acl_check_device(api);
    if (rc == ACL_SUCCESS)
        rc = sync_get(handle, magic, api, &e);
    if (rc != ACL_SUCCESS)
        return rc;
    e->magic = 0;
    event_unref(e);
    return ACL_SUCCESS;
}

aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_device("aclrtCreateEvent");
    if (rc == ACL_SUCCESS && !event)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateEvent: event is NULL");
    if (rc != ACL_SUCCESS)
        return rc;
    if (flag & ACL_EVENT_IPC)
        return dv_acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                           "aclrtCreateEvent: ACL_EVENT_IPC: sharing events between processes is not simulated");
    /* every event records simulated time */
    dv_acl_event_t *e = sync_new(EVENT_MAGIC);
    if (!e)
        return dv_acl_fail(ACL_ERROR_BAD_ALLOC, "aclrtCreateEvent: out of memory");
    *event = e;
    return ACL_SUCCESS;
}

aclError aclrtCreateEvent(aclrtEvent *event)
{
    DV_ACL_LOCKED();
    return aclrtCreateEventWithFlag(event, ACL_EVENT_SYNC);
}

aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag)
{
    DV_ACL_LOCKED();
    return aclrtCreateEventWithFlag(event, flag);
}

aclError aclrtDestroyEvent(aclrtEvent event)
{
    DV_ACL_LOCKED();
    return sync_destroy(event, EVENT_MAGIC, "aclrtDestroyEvent");
}

/* Queue a record or a wait of an event (T_RECORD, T_WAIT) or a notify (T_NOTIFY_*) on a stream. */
static int event_task(const void *event, aclrtStream stream, const char *api, task_kind_t kind)
{
    const bool notify = kind == T_NOTIFY_RECORD || kind == T_NOTIFY_WAIT;
    dv_acl_event_t *e = NULL;
    dv_acl_stream_t *s = NULL;
    int rc = dv_acl_check_device(api);
    if (rc == ACL_SUCCESS)
        rc = sync_get(event, notify ? NOTIFY_MAGIC : EVENT_MAGIC, api, &e);
    if (rc == ACL_SUCCESS)
        rc = stream_get(stream, api, &s);
    if (rc == ACL_SUCCESS && notify && s->tape)
        rc = dv_acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: stream %u is capturing; notifies in a capture are not "
                         "simulated", api, s->id);
    if (rc == ACL_SUCCESS && kind == T_WAIT && e->tape && e->tape != s->tape)
        rc = tape_join(e->tape, s, api);
    task_t *t = rc == ACL_SUCCESS ? task_new(kind, api) : NULL;
    if (rc == ACL_SUCCESS && !t)
        rc = ACL_ERROR_BAD_ALLOC;
    if (rc != ACL_SUCCESS)
        return rc;
    t->event = e;
    e->refs++;
    t->wait_seq = e->queued_seq;
    enqueue_on(s, t);
    if (kind == T_RECORD) { /* a captured record does not run now: live waits keep the last live record */
        e->tape = s->tape;
        if (!s->tape)
            e->queued_seq = t->seq;
    }
    return ACL_SUCCESS;
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream)
{
    DV_ACL_LOCKED();
    return event_task(event, stream, "aclrtRecordEvent", T_RECORD);
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event)
{
    DV_ACL_LOCKED();
    return event_task(event, stream, "aclrtStreamWaitEvent", T_WAIT);
}

aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag)
{
    DV_ACL_LOCKED();
    if (flag != ACL_EVENT_RECORD_DEFAULT)
        return dv_acl_fail(flag == ACL_EVENT_RECORD_EXTERNAL ? ACL_ERROR_RT_FEATURE_NOT_SUPPORT : ACL_ERROR_INVALID_PARAM,
                           "aclrtRecordEventWithFlag: flag 0x%x: only ACL_EVENT_RECORD_DEFAULT is simulated", flag);
    return event_task(event, stream, "aclrtRecordEventWithFlag", T_RECORD);
}

aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout, uint32_t flag)
{
    DV_ACL_LOCKED();
    (void)timeout; /* a simulated wait completes, or fails at the synchronisation when its record never runs */
    if (flag != ACL_EVENT_WAIT_DEFAULT)
        return dv_acl_fail(flag == ACL_EVENT_WAIT_EXTERNAL ? ACL_ERROR_RT_FEATURE_NOT_SUPPORT : ACL_ERROR_INVALID_PARAM,
                           "aclrtStreamWaitEventWithFlag: flag 0x%x: only ACL_EVENT_WAIT_DEFAULT is simulated", flag);
    return event_task(event, stream, "aclrtStreamWaitEventWithFlag", T_WAIT);
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream)
{
    DV_ACL_LOCKED();
    dv_acl_event_t *e = NULL;
    dv_acl_stream_t *s = NULL;
    int rc = dv_acl_check_device("aclrtResetEvent");
    if (rc == ACL_SUCCESS)
        rc = event_get(event, "aclrtResetEvent", &e);
    if (rc == ACL_SUCCESS)
        rc = stream_get(stream, "aclrtResetEvent", &s);
    if (rc == ACL_SUCCESS) {
        /* later waits do not wait for records before the reset */
        e->queued_seq = 0;
    }
    return rc;
}

aclError aclrtSynchronizeEvent(aclrtEvent event)
{
    DV_ACL_LOCKED();
    dv_acl_event_t *e = NULL;
    int rc = dv_acl_check_device("aclrtSynchronizeEvent");
    if (rc == ACL_SUCCESS)
        rc = event_get(event, "aclrtSynchronizeEvent", &e);
    if (rc == ACL_SUCCESS)
        rc = dv_acl_capture_forbids("aclrtSynchronizeEvent");
    return rc == ACL_SUCCESS ? dv_acl_sync() : rc;
}

aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout)
{
    DV_ACL_LOCKED();
    (void)timeout;
    return aclrtSynchronizeEvent(event);
}

/* Its last live record has run (an event never recorded is not complete). */
static bool event_complete(const dv_acl_event_t *e)
{
    return e->done_seq && e->done_seq >= e->queued_seq;
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status)
{
    DV_ACL_LOCKED();
    dv_acl_event_t *e = NULL;
    int rc = dv_acl_check_device("aclrtQueryEventStatus");
    if (rc == ACL_SUCCESS && !status)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtQueryEventStatus: status is NULL");
    if (rc == ACL_SUCCESS)
        rc = event_get(event, "aclrtQueryEventStatus", &e);
    if (rc == ACL_SUCCESS)
        rc = dv_acl_capture_forbids("aclrtQueryEventStatus");
    if (rc != ACL_SUCCESS)
        return rc;
    if (e->queued_seq > e->done_seq)
        query_step();
    *status = event_complete(e) ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
    return ACL_SUCCESS;
}

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status)
{
    DV_ACL_LOCKED();
    dv_acl_event_t *e = NULL;
    int rc = dv_acl_check_device("aclrtQueryEvent");
    if (rc == ACL_SUCCESS && !status)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtQueryEvent: status is NULL");
    if (rc == ACL_SUCCESS)
        rc = event_get(event, "aclrtQueryEvent", &e);
    if (rc == ACL_SUCCESS)
        rc = dv_acl_capture_forbids("aclrtQueryEvent");
    if (rc != ACL_SUCCESS)
        return rc;
    if (e->queued_seq > e->done_seq)
        query_step();
    *status = event_complete(e) ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
    return ACL_SUCCESS;
}

/* An event that has been recorded and whose record has run. */
static int event_done(aclrtEvent event, const char *api, dv_acl_event_t **out)
{
    int rc = event_get(event, api, out);
    if (rc == ACL_SUCCESS && (*out)->queued_seq > (*out)->done_seq)
        rc = dv_acl_fail(ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                         "%s: the event's record has not run yet (synchronize the stream or the event first)", api);
    if (rc == ACL_SUCCESS && !(*out)->done_seq)
        rc = dv_acl_fail(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, "%s: the event was never recorded", api);
    return rc;
}

aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent)
{
    DV_ACL_LOCKED();
    dv_acl_event_t *a = NULL, *b = NULL;
    int rc = dv_acl_check_device("aclrtEventElapsedTime");
    if (rc == ACL_SUCCESS && !ms)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime: ms is NULL");
    if (rc == ACL_SUCCESS)
        rc = event_done(startEvent, "aclrtEventElapsedTime", &a);
    if (rc == ACL_SUCCESS)
        rc = event_done(endEvent, "aclrtEventElapsedTime", &b);
    if (rc == ACL_SUCCESS && b->cycle < a->cycle)
        rc = dv_acl_fail(ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL,
                         "aclrtEventElapsedTime: the end event was recorded before the start event");
    if (rc == ACL_SUCCESS)
        *ms = (float)((double)(b->cycle - a->cycle) / (double)dv_acl_config()->chip_freq_mhz / 1000.0);
    return rc;
}

aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp)
{
    DV_ACL_LOCKED();
    dv_acl_event_t *e = NULL;
    int rc = dv_acl_check_device("aclrtEventGetTimestamp");
    if (rc == ACL_SUCCESS && !timestamp)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtEventGetTimestamp: timestamp is NULL");
    if (rc == ACL_SUCCESS)
        rc = event_done(event, "aclrtEventGetTimestamp", &e);
    if (rc == ACL_SUCCESS) /* microseconds of simulated time since the device was set */
        *timestamp = e->cycle / dv_acl_config()->chip_freq_mhz;
    return rc;
}

/* ---------------------------------------------------------------- stream queries and control */

/* The stream a query names (NULL: the default stream), with a device set and out non-NULL. */
static int stream_query(aclrtStream stream, const void *out, const char *what, const char *api, dv_acl_stream_t **s)
{
    int rc = dv_acl_check_device(api);
    if (rc == ACL_SUCCESS && !out)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: %s is NULL", api, what);
    return rc == ACL_SUCCESS ? stream_get(stream, api, s) : rc;
}

aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t *priority)
{
    DV_ACL_LOCKED();
    dv_acl_stream_t *s = NULL;
    int rc = stream_query(stream, priority, "priority", "aclrtStreamGetPriority", &s);
    if (rc == ACL_SUCCESS)
        *priority = s->priority;
    return rc;
}

aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t *flags)
{
    DV_ACL_LOCKED();
    dv_acl_stream_t *s = NULL;
    int rc = stream_query(stream, flags, "flags", "aclrtStreamGetFlags", &s);
    if (rc == ACL_SUCCESS)
        *flags = s->flags;
    return rc;
}

aclError aclrtStreamGetId(aclrtStream stream, int32_t *streamId)
{
    DV_ACL_LOCKED();
    dv_acl_stream_t *s = NULL;
    int rc = stream_query(stream, streamId, "streamId", "aclrtStreamGetId", &s);
    if (rc == ACL_SUCCESS)
        *streamId = (int32_t)s->id;
    return rc;
}

aclError aclrtDeviceGetStreamPriorityRange(int32_t *leastPriority, int32_t *greatestPriority)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_device("aclrtDeviceGetStreamPriorityRange");
    if (rc == ACL_SUCCESS && (!leastPriority || !greatestPriority))
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtDeviceGetStreamPriorityRange: %s is NULL",
                         leastPriority ? "greatestPriority" : "leastPriority");
    if (rc == ACL_SUCCESS) {
        *leastPriority = 7;
        *greatestPriority = 0;
    }
    return rc;
}

aclError aclrtCtxGetCurrentDefaultStream(aclrtStream *stream)
{
    DV_ACL_LOCKED();
    dv_acl_stream_t *s = NULL;
    int rc = stream_query(NULL, stream, "stream", "aclrtCtxGetCurrentDefaultStream", &s);
    if (rc == ACL_SUCCESS)
        *stream = s;
    return rc;
}

/* Drop the tasks of s that have not run (they never will). */
static int stream_discard(aclrtStream stream, const char *api)
{
    dv_acl_stream_t *s = NULL;
    int rc = dv_acl_refuse_while_draining(api);
    if (rc == ACL_SUCCESS)
        rc = dv_acl_check_device(api);
    if (rc == ACL_SUCCESS && !stream)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: stream is NULL", api);
    if (rc == ACL_SUCCESS)
        rc = stream_get(stream, api, &s);
    if (rc == ACL_SUCCESS && s->tape)
        rc = dv_acl_fail(ACL_ERROR_RT_STREAM_CAPTURED, "%s: stream %u is capturing (aclmdlRICaptureEnd first)", api,
                         s->id);
    if (rc != ACL_SUCCESS)
        return rc;
    while (s->head) {
        task_t *t = s->head;
        s->head = t->next;
        task_free(t);
    }
    s->tail = NULL;
    return ACL_SUCCESS;
}

aclError aclrtStreamStop(aclrtStream stream)
{
    DV_ACL_LOCKED();
    return stream_discard(stream, "aclrtStreamStop");
}

aclError aclrtStreamAbort(aclrtStream stream)
{
    DV_ACL_LOCKED();
    return stream_discard(stream, "aclrtStreamAbort");
}

aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_device("aclrtLaunchHostFunc");
    if (rc == ACL_SUCCESS && !fn)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtLaunchHostFunc: fn is NULL");
    task_t *t = rc == ACL_SUCCESS ? task_new(T_CALLBACK, "aclrtLaunchHostFunc") : NULL;
    if (rc == ACL_SUCCESS && !t)
        rc = ACL_ERROR_BAD_ALLOC;
    if (rc != ACL_SUCCESS)
        return rc;
    t->fn = fn;
    t->user = args;
    return enqueue(stream, "aclrtLaunchHostFunc", t);
}

/* ---------------------------------------------------------------- report subscriptions */


static int sub_find(uint64_t threadId, aclrtStream stream, const char *api, dv_acl_stream_t **s, int *slot)
{
    int rc = dv_acl_check_device(api);
    if (rc == ACL_SUCCESS)
        rc = stream_get(stream, api, s);
    *slot = -1;
    for (int i = 0; rc == ACL_SUCCESS && i < REPORT_SUBS; i++)
        if (g_subs[i].stream == *s && g_subs[i].thread == threadId)
            *slot = i;
    return rc;
}

static int subscribe(uint64_t threadId, aclrtStream stream, const char *api)
{
    dv_acl_stream_t *s = NULL;
    int slot = -1;
    int rc = sub_find(threadId, stream, api, &s, &slot);
    if (rc == ACL_SUCCESS && slot >= 0)
        rc = dv_acl_fail(ACL_ERROR_REPEAT_SUBSCRIBE, "%s: thread %llu already handles stream %u", api,
                         (unsigned long long)threadId, s->id);
    for (int i = 0; rc == ACL_SUCCESS && slot < 0 && i < REPORT_SUBS; i++)
        if (!g_subs[i].stream)
            slot = i;
    if (rc == ACL_SUCCESS && slot < 0)
        rc = dv_acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: more than %d subscriptions", api, REPORT_SUBS);
    if (rc == ACL_SUCCESS) {
        g_subs[slot].thread = threadId;
        g_subs[slot].stream = s;
    }
    return rc;
}

static int unsubscribe(uint64_t threadId, aclrtStream stream, const char *api)
{
    dv_acl_stream_t *s = NULL;
    int slot = -1;
    int rc = sub_find(threadId, stream, api, &s, &slot);
    if (rc == ACL_SUCCESS && slot < 0)
        rc = dv_acl_fail(ACL_ERROR_STREAM_NOT_SUBSCRIBE, "%s: thread %llu does not handle stream %u (not subscribed)",
                         api, (unsigned long long)threadId, s->id);
    if (rc == ACL_SUCCESS)
        memset(&g_subs[slot], 0, sizeof g_subs[slot]);
    return rc;
}

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream)
{
    DV_ACL_LOCKED();
    return subscribe(threadId, stream, "aclrtSubscribeReport");
}

aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream)
{
    DV_ACL_LOCKED();
    return subscribe(hostFuncThreadId, exeStream, "aclrtSubscribeHostFunc");
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream)
{
    DV_ACL_LOCKED();
    return unsubscribe(threadId, stream, "aclrtUnSubscribeReport");
}

aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream)
{
    DV_ACL_LOCKED();
    return unsubscribe(hostFuncThreadId, exeStream, "aclrtUnSubscribeHostFunc");
}

static int process_reports(int32_t timeout, const char *api)
{
    int rc = dv_acl_check_device(api);
    bool any = false;
    for (int i = 0; i < REPORT_SUBS; i++)
        any = any || g_subs[i].stream;
    if (rc == ACL_SUCCESS && timeout < -1)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: timeout %d is not -1 or a number of ms", api, timeout);
    if (rc == ACL_SUCCESS && !any)
        rc = dv_acl_fail(ACL_ERROR_THREAD_NOT_SUBSCRIBE, "%s: no thread is subscribed", api);
    if (rc != ACL_SUCCESS)
        return rc;
    /* the callbacks run as the device reaches them: running the queued work runs every one due */
    bool queued = false;
    for (dv_acl_stream_t *s = g_st.streams; s; s = s->next)
        queued = queued || s->head;
    if (!queued)
        return dv_acl_fail(ACL_ERROR_RT_REPORT_TIMEOUT, "%s: no callback was reported within %d ms (nothing is queued)",
                           api, timeout);
    dv_acl_drain();
    return ACL_SUCCESS;
}

aclError aclrtProcessReport(int32_t timeout)
{
    DV_ACL_LOCKED();
    return process_reports(timeout, "aclrtProcessReport");
}

aclError aclrtProcessHostFunc(int32_t timeout)
{
    DV_ACL_LOCKED();
    return process_reports(timeout, "aclrtProcessHostFunc");
}

/* ---------------------------------------------------------------- notifies */

aclError aclrtCreateNotify(aclrtNotify *notify, uint64_t flag)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_device("aclrtCreateNotify");
    if (rc == ACL_SUCCESS && !notify)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateNotify: notify is NULL");
    if (rc == ACL_SUCCESS && flag != 0)
        rc = dv_acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                         "aclrtCreateNotify: flag 0x%llx is not simulated (only 0: a notify of this process)",
                         (unsigned long long)flag);
    if (rc != ACL_SUCCESS)
        return rc;
    dv_acl_event_t *n = sync_new(NOTIFY_MAGIC);
    if (!n)
        return dv_acl_fail(ACL_ERROR_BAD_ALLOC, "aclrtCreateNotify: out of memory");
    n->id = g_st.next_notify_id++;
    *notify = n;
    return ACL_SUCCESS;
}

aclError aclrtDestroyNotify(aclrtNotify notify)
{
    DV_ACL_LOCKED();
    return sync_destroy(notify, NOTIFY_MAGIC, "aclrtDestroyNotify");
}

aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream)
{
    DV_ACL_LOCKED();
    return event_task(notify, stream, "aclrtRecordNotify", T_NOTIFY_RECORD);
}

aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout)
{
    DV_ACL_LOCKED();
    (void)timeout; /* a wait whose record is queued completes; one without fails at the synchronisation */
    return event_task(notify, stream, "aclrtWaitAndResetNotify", T_NOTIFY_WAIT);
}

aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t *notifyId)
{
    DV_ACL_LOCKED();
    dv_acl_event_t *n = NULL;
    int rc = dv_acl_check_device("aclrtGetNotifyId");
    if (rc == ACL_SUCCESS && !notifyId)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetNotifyId: notifyId is NULL");
    if (rc == ACL_SUCCESS)
        rc = sync_get(notify, NOTIFY_MAGIC, "aclrtGetNotifyId", &n);
    if (rc == ACL_SUCCESS)
        *notifyId = n->id;
    return rc;
}
