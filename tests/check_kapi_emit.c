/* tests/check_kapi_emit.c - the kernel API's inline emitting path (kernel/kapi_emit.h, taken by the
 * simulator's own kernels) against the general one (dv/kapi_insn.h through dvk_emit): the same
 * instructions handed over, the same scalar charges before them, the same pipes left unsynced, and
 * for a bad instruction the same message at the same place. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DVK_EMIT_ANY emit_any_inline /* the generated dispatcher over the inline dvk_<mnemonic> */
#include "../kernel/kapi_emit.h"

#include "support/dvt.h"

void dvt_kapi_emit_general(dv_k_t *k, dv_op_t op, const dv_val_t *f); /* (support/kapi_any.c) */

typedef void (*emit_fn)(dv_k_t *k, dv_op_t op, const dv_val_t *f);

/* One call of the kernel: charges (bookkeeping, native code counted) and a line, then the instruction. */
typedef struct item {
    uint16_t op;
    uint8_t charges;   /* dvk_bookkeeping calls before it */
    uint8_t native;    /* native instructions counted before it (rule 4) */
    uint32_t line;
    dv_val_t f[DV_MAX_FIELDS];
} item_t;

typedef struct runp {
    const item_t *items;
    uint32_t n;
    emit_fn emit;
    uint32_t *unsynced; /* after each item: dvk_unsynced_pipes */
    uint32_t *done;     /* items emitted */
} runp_t;

static uint64_t native_ops; /* the counter a dvcc-built unit would register */

static void run_kernel(dv_k_t *k, const void *pv)
{
    const runp_t *p = pv;
    for (uint32_t i = 0; i < p->n; i++) {
        const item_t *it = &p->items[i];
        for (uint32_t c = 0; c < it->charges; c++)
            dvk_bookkeeping(k);
        native_ops += it->native;
        dvk_set_line(k, it->line);
        p->emit(k, (dv_op_t)it->op, it->f);
        p->unsynced[i] = dvk_unsynced_pipes(k);
        *p->done = i + 1;
    }
}

typedef struct result {
    int rc;
    uint32_t n, done;
    dv_insn_t *insns;
    uint32_t *unsynced;
    dv_error_t err;
} result_t;

/* Block 0's AIC stream of a kernel making the calls items[0..n-1] through `emit`, read without a model. */
static void run(const dv_config_t *cfg, const item_t *items, uint32_t n, emit_fn emit, result_t *r)
{
    memset(r, 0, sizeof *r);
    r->insns = calloc((size_t)n * 4 + 16, sizeof *r->insns);
    r->unsynced = calloc(n + 1, sizeof *r->unsynced);
    ck_assert(r->insns && r->unsynced);
    dv_kernel_info_t info = {.name = "emit", .kind = DV_KIND_MIX, .blocks = 1};
    runp_t p = {items, n, emit, r->unsynced, &r->done};
    dv_kernel_t *k;
    ck_assert_int_eq(dvk_kernel_create(cfg, &info, run_kernel, &p, sizeof p, &k, &r->err), DV_OK);
    dv_stream_t *s;
    ck_assert_int_eq(k->open(k, 0, DV_SUB_AIC, &s, &r->err), DV_OK);
    dv_insn_t in;
    while ((r->rc = s->next(s, &in, &r->err)) == 1) {
        ck_assert_uint_lt(r->n, n * 4 + 16);
        r->insns[r->n++] = in;
    }
    s->close(s);
    dvk_kernel_destroy(k);
}

static void same(const result_t *a, const result_t *b)
{
    ck_assert_int_eq(a->rc, b->rc);
    ck_assert_uint_eq(a->n, b->n);
    ck_assert_uint_eq(a->done, b->done);
    for (uint32_t i = 0; i < a->n; i++) {
        const dv_insn_t *x = &a->insns[i], *y = &b->insns[i];
        ck_assert_uint_eq(x->op, y->op);
        ck_assert_uint_eq(x->nf, y->nf);
        ck_assert_uint_eq(x->line, y->line);
        ck_assert_msg(memcmp(x->f, y->f, x->nf * sizeof x->f[0]) == 0, "instruction %u (%s) differs", i,
                      dv_op_spec((dv_op_t)x->op)->mnemonic);
    }
    ck_assert(memcmp(a->unsynced, b->unsynced, a->done * sizeof a->unsynced[0]) == 0);
    if (a->rc < 0)
        ck_assert_str_eq(a->err.msg, b->err.msg);
}

static void result_free(result_t *r)
{
    free(r->insns);
    free(r->unsynced);
}

/* Operands mostly in range, each now and then at or past an edge of its range (an address in
 * another space, a dtype out of the op's set, a rule across fields broken). */
static void random_item(item_t *it, dv_op_t op, int t, uint64_t *x)
{
    const dv_insn_rules_t *r = dv_insn_rules(op);
    memset(it, 0, sizeof *it);
    it->op = (uint16_t)op;
    for (int i = 0; i < r->nf; i++) {
        *x = *x * 6364136223846793005ull + 1442695040888963407ull;
        const uint64_t v = *x >> 11, pick = (*x >> 4) % 16, span = r->span[i];
        switch (pick) {
        case 0: it->f[i].u = r->lo[i]; break;
        case 1: it->f[i].u = r->lo[i] + span; break;
        case 2: it->f[i].u = t % 8 == 0 ? r->lo[i] - 1 : r->lo[i]; break;
        case 3: it->f[i].u = t % 8 == 1 ? r->lo[i] + span + 1 : r->lo[i] + span; break;
        case 4: it->f[i].u = t % 8 == 2 ? v : r->lo[i]; break;
        default: it->f[i].u = r->lo[i] + (span == UINT64_MAX ? v : v % (span + 1));
        }
    }
    it->charges = (uint8_t)(*x >> 20 & 3) == 3 ? (uint8_t)(1 + (*x >> 24) % 3) : 0;
    it->line = (uint32_t)(*x >> 30 & 7);
}

START_TEST(test_kapi_emit_inline_matches_general)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    enum { PER_OP = 40 };
    static item_t items[PER_OP], good[DV_OP_COUNT * PER_OP];
    uint32_t ngood = 0, nbad = 0;
    uint64_t x = 0x243f6a8885a308d3ull;
    /* per op: its calls in one stream, again from the call after each that failed */
    for (int op = 0; op < DV_OP_COUNT; op++) {
        for (int t = 0; t < PER_OP; t++)
            random_item(&items[t], (dv_op_t)op, t, &x);
        for (uint32_t from = 0; from < PER_OP;) {
            result_t a, b;
            run(&cfg, items + from, PER_OP - from, emit_any_inline, &a);
            run(&cfg, items + from, PER_OP - from, dvt_kapi_emit_general, &b);
            same(&a, &b);
            memcpy(good + ngood, items + from, a.done * sizeof *items);
            ngood += a.done;
            from += a.done;
            if (a.rc < 0) {
                nbad++;
                from++;
            } else
                ck_assert_uint_eq(from, PER_OP);
            result_free(&a);
            result_free(&b);
        }
    }
    ck_assert_uint_gt(nbad, DV_OP_COUNT);
    ck_assert_uint_gt(ngood, 1500);
    /* the good ones in one stream, several buffers long, with native code counted now and then */
    for (uint32_t i = 0; i < ngood; i++)
        good[i].native = i % 7 == 3 ? (uint8_t)(1 + i % 5) : 0;
    dvk_native_register(&native_ops, true);
    result_t a, b;
    run(&cfg, good, ngood, emit_any_inline, &a);
    run(&cfg, good, ngood, dvt_kapi_emit_general, &b);
    dvk_native_register(&native_ops, false);
    same(&a, &b);
    ck_assert_int_eq(a.rc, 0);
    ck_assert_uint_gt(a.n, ngood + ngood / 7); /* (a scalar before each call with charges or native code) */
    result_free(&a);
    result_free(&b);
}
END_TEST

/* A run of load2ds (dvk_<mnemonic>_run): its n instructions stepping from the first. */
typedef struct lrun {
    bool to_b;
    uint8_t charges; /* dvk_bookkeeping calls before it */
    uint32_t n, line;
    uint64_t dst, dst_step, src, base, base_step;
    int64_t repeat, stride, gap;
    int dtype, transpose;
} lrun_t;

typedef struct lrunp {
    const lrun_t *runs;
    uint32_t n;
    bool inline_run;    /* through dvk_<mnemonic>_run, else one general call per instruction */
    uint32_t *unsynced; /* after each run */
    uint32_t *done;     /* runs emitted */
} lrunp_t;

static void run_kernel_runs(dv_k_t *k, const void *pv)
{
    const lrunp_t *p = pv;
    for (uint32_t r = 0; r < p->n; r++) {
        const lrun_t *u = &p->runs[r];
        for (uint32_t c = 0; c < u->charges; c++)
            dvk_bookkeeping(k);
        dvk_set_line(k, u->line);
        if (p->inline_run && u->to_b)
            dvk_load_cbuf_to_cb_run(k, u->n, u->dst, u->dst_step, u->src, (dv_dtype_t)u->dtype, u->base, u->base_step,
                                    u->repeat, u->stride, u->gap, u->transpose);
        else if (p->inline_run)
            dvk_load_cbuf_to_ca_run(k, u->n, u->dst, u->dst_step, u->src, (dv_dtype_t)u->dtype, u->base, u->base_step,
                                    u->repeat, u->stride, u->gap, u->transpose);
        else
            for (uint32_t i = 0; i < u->n; i++) {
                dv_val_t f[8];
                f[0].u = u->dst + i * u->dst_step;
                f[1].u = u->src;
                f[2].i = u->dtype;
                f[3].u = u->base + i * u->base_step;
                f[4].i = u->repeat;
                f[5].i = u->stride;
                f[6].i = u->gap;
                f[7].i = u->transpose;
                dvt_kapi_emit_general(k, u->to_b ? DV_OP_load_cbuf_to_cb : DV_OP_load_cbuf_to_ca, f);
            }
        p->unsynced[r] = dvk_unsynced_pipes(k);
        *p->done = r + 1;
    }
}

/* Block 0's AIC stream of a kernel emitting runs[0..n-1], read without a model. */
static void run_runs(const dv_config_t *cfg, const lrun_t *runs, uint32_t n, bool inline_run, uint32_t insns,
                     result_t *r)
{
    memset(r, 0, sizeof *r);
    r->insns = calloc((size_t)insns + 16, sizeof *r->insns);
    r->unsynced = calloc(n + 1, sizeof *r->unsynced);
    ck_assert(r->insns && r->unsynced);
    dv_kernel_info_t info = {.name = "emit", .kind = DV_KIND_MIX, .blocks = 1};
    lrunp_t p = {runs, n, inline_run, r->unsynced, &r->done};
    dv_kernel_t *k;
    ck_assert_int_eq(dvk_kernel_create(cfg, &info, run_kernel_runs, &p, sizeof p, &k, &r->err), DV_OK);
    dv_stream_t *s;
    ck_assert_int_eq(k->open(k, 0, DV_SUB_AIC, &s, &r->err), DV_OK);
    dv_insn_t in;
    while ((r->rc = s->next(s, &in, &r->err)) == 1) {
        ck_assert_uint_lt(r->n, insns + 16);
        r->insns[r->n++] = in;
    }
    s->close(s);
    dvk_kernel_destroy(k);
}

/* Runs of 0 to 40 load2ds, mostly good, now and then with the first, the last or one between past
 * its field's range (steps that wrap, or of 2^52 and more), a constant field bad, charges owed
 * before it, across the buffer's end: the same stream, pipes and message as the calls one by one.
 * (It fails when a run skips the check of an instruction between its first and last that is bad.) */
START_TEST(test_kapi_emit_load2d_run_matches_general)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    enum { RUNS = 1000 };
    static lrun_t runs[RUNS];
    uint64_t x = 0x13198a2e03707344ull;
    uint32_t insns = 0, nbad = 0;
#define NEXT (x = x * 6364136223846793005ull + 1442695040888963407ull, x >> 17)
    for (uint32_t r = 0; r < RUNS; r++) {
        lrun_t *u = &runs[r];
        memset(u, 0, sizeof *u);
        u->to_b = NEXT & 1;
        u->n = (uint32_t)(NEXT % 8 == 0 ? NEXT % 41 : 1 + NEXT % 6);
        u->line = (uint32_t)(NEXT % 4);
        u->charges = NEXT % 5 == 0 ? (uint8_t)(1 + NEXT % 2) : 0;
        u->dst = DV_ADDR(u->to_b ? DV_SPACE_L0B : DV_SPACE_L0A, (NEXT % 64) * 512);
        u->dst_step = 512 * (NEXT % 4);
        u->src = DV_ADDR(DV_SPACE_L1, (NEXT % 64) * 512);
        u->dtype = DV_DT_F16;
        u->base = NEXT % 100;
        u->base_step = NEXT % 3;
        u->repeat = 1 + (int64_t)(NEXT % 16);
        u->stride = (int64_t)(NEXT % 4);
        u->gap = (int64_t)(NEXT % 4);
        u->transpose = (int)(NEXT & 1);
        switch (NEXT % 24) {
        case 0: u->base = 65535 - NEXT % 4; break;                      /* the last past 65535, or not */
        case 1: u->base_step = UINT64_MAX; break;                        /* stepping down: wraps below 0 */
        case 2: u->base_step = 1ull << 63; break;                        /* first and last alike, the ones between not */
        case 3: u->base_step = DVK_RUN_STEP_LIMIT; u->base = 0; break;   /* (the limit itself) */
        case 4: u->dst_step = 1ull << 56; break;                         /* into the next space */
        case 5: u->dst_step = 1ull << 63; break;                         /* first and last in the space, between not */
        case 6: u->dst_step = (1ull << 56) - 512; u->dst = DV_ADDR(DV_SPACE_L0A, 0); break;
        case 7: u->repeat = 0; break;                                    /* a constant field bad */
        case 8: u->dtype = DV_DT_F32; break;                             /* transpose of 32-bit: a rule across fields */
        case 9: u->src = DV_ADDR(DV_SPACE_UB, 0); break;
        default: break;
        }
        insns += u->n + u->charges;
    }
#undef NEXT
    for (uint32_t from = 0; from < RUNS;) {
        result_t a, b;
        run_runs(&cfg, runs + from, RUNS - from, true, insns, &a);
        run_runs(&cfg, runs + from, RUNS - from, false, insns, &b);
        same(&a, &b);
        from += a.done;
        if (a.rc < 0) {
            nbad++;
            from++;
        } else
            ck_assert_uint_eq(from, RUNS);
        result_free(&a);
        result_free(&b);
    }
    ck_assert_uint_gt(nbad, 20);
    /* the good ones only, in one stream of several buffers */
    uint32_t ngood = 0;
    insns = 0;
    for (uint32_t r = 0; r < RUNS; r++) {
        const lrun_t *u = &runs[r];
        const bool bad = u->repeat == 0 || u->base + (u->n ? u->n - 1 : 0) * u->base_step > 65535 ||
                         u->base_step >= DVK_RUN_STEP_LIMIT || u->dst_step >= (1ull << 56) - 512 ||
                         (u->dtype == DV_DT_F32 && u->transpose) || DV_ADDR_SPACE(u->src) != DV_SPACE_L1;
        if (!bad) {
            runs[ngood++] = *u;
            insns += u->n + u->charges;
        }
    }
    ck_assert_uint_gt(insns, 3 * DVK_BUF_INSNS);
    result_t a, b;
    run_runs(&cfg, runs, ngood, true, insns, &a);
    run_runs(&cfg, runs, ngood, false, insns, &b);
    same(&a, &b);
    ck_assert_int_eq(a.rc, 0);
    result_free(&a);
    result_free(&b);
}
END_TEST

/* A queue's charge and flag (kernel/kapi.c's charge_then_flag) against dvk_bookkeeping and the flag
 * through dvk_emit: rounds of alloc, enque, deque, free on two queues (depths 3 and 1), with charges
 * owed before some, over several buffers.  No native code is registered (in this test's process,
 * fork mode): with it the common case is never taken. */
typedef struct quep {
    bool by_hand;
    uint32_t rounds;
    uint32_t *unsynced; /* after each round */
    uint32_t *done;
} quep_t;

static void hand_flag(dv_k_t *k, bool set, int src, int dst, int id)
{
    dv_val_t f[3];
    f[0].i = src;
    f[1].i = dst;
    f[2].i = id;
    dvk_bookkeeping(k);
    dvt_kapi_emit_general(k, set ? DV_OP_set_flag : DV_OP_wait_flag, f);
}

static void run_kernel_que(dv_k_t *k, const void *pv)
{
    const quep_t *p = pv;
    dv_que_t q[2];
    dvk_que_init(k, &q[0], DV_SPACE_L1, DV_PIPE_MTE2, DV_PIPE_MTE1, 3, 4096);
    dvk_que_init(k, &q[1], DV_SPACE_L0C, DV_PIPE_M, DV_PIPE_FIX, 1, 4096);
    uint64_t x = 0x0d5a1f3e8c7b6a59ull;
    for (uint32_t r = 0; r < p->rounds; r++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        dv_que_t *u = &q[x >> 60 & 1];
        if ((x >> 40) % 5 == 0)
            dvk_bookkeeping(k);
        dvk_set_line(k, (uint32_t)(r % 5));
        if (!p->by_hand) {
            const uint64_t b = dvk_que_alloc(k, u);
            dvk_que_enque(k, u, b);
            dvk_que_free(k, u, dvk_que_deque(k, u));
        } else { /* (the same queue bookkeeping, its charges and flags one by one) */
            const uint32_t i = u->n_alloc % u->depth;
            u->n_alloc++, u->n_enque++, u->n_deque++, u->n_free++;
            if (u->freed[i])
                hand_flag(k, false, u->cons, u->prod, u->ev_free[i]);
            else
                dvk_bookkeeping(k);
            hand_flag(k, true, u->prod, u->cons, u->ev_full[i]);
            hand_flag(k, false, u->prod, u->cons, u->ev_full[i]);
            hand_flag(k, true, u->cons, u->prod, u->ev_free[i]);
            u->freed[i] = true;
        }
        p->unsynced[r] = dvk_unsynced_pipes(k);
        *p->done = r + 1;
    }
}

START_TEST(test_kapi_emit_queue_flags_match_general)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    enum { ROUNDS = 1500 };
    result_t r[2];
    for (int h = 0; h < 2; h++) {
        result_t *a = &r[h];
        memset(a, 0, sizeof *a);
        a->insns = calloc(ROUNDS * 10 + 64, sizeof *a->insns);
        a->unsynced = calloc(ROUNDS + 1, sizeof *a->unsynced);
        ck_assert(a->insns && a->unsynced);
        dv_kernel_info_t info = {.name = "emit", .kind = DV_KIND_MIX, .blocks = 1};
        quep_t p = {h == 1, ROUNDS, a->unsynced, &a->done};
        dv_kernel_t *k;
        ck_assert_int_eq(dvk_kernel_create(&cfg, &info, run_kernel_que, &p, sizeof p, &k, &a->err), DV_OK);
        dv_stream_t *s;
        ck_assert_int_eq(k->open(k, 0, DV_SUB_AIC, &s, &a->err), DV_OK);
        dv_insn_t in;
        while ((a->rc = s->next(s, &in, &a->err)) == 1) {
            ck_assert_uint_lt(a->n, ROUNDS * 10 + 64);
            a->insns[a->n++] = in;
        }
        s->close(s);
        dvk_kernel_destroy(k);
    }
    same(&r[0], &r[1]);
    ck_assert_int_eq(r[0].rc, 0);
    ck_assert_uint_eq(r[0].done, ROUNDS);
    ck_assert_uint_gt(r[0].n, 3 * DVK_BUF_INSNS);
    result_free(&r[0]);
    result_free(&r[1]);
}
END_TEST

Suite *dv_kapi_emit_suite(void)
{
    Suite *s = suite_create("kapi_emit");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_kapi_emit_inline_matches_general);
    tcase_add_test(tc, test_kapi_emit_load2d_run_matches_general);
    tcase_add_test(tc, test_kapi_emit_queue_flags_match_general);
    suite_add_tcase(s, tc);
    return s;
}
