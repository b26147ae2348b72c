/* bench/micro_core.c - the rows of bench/micro.def that measure one core's own units: launch and
 * block start, the scalar unit and flags (in-core and cross-core), the pipe queues, the vector
 * classes, the cube and MTE1.  Each builds small kernels with the harness (micro_internal.h). */
#include "micro_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dv/topology.h"
#include "dv/trace.h"

/* ================================================================ launch, scalar, sync */

static int study_start(micro_ctx_t *c)
{
    outcome_t *m = &c->start_m;
    if (m->done)
        return m->rc;
    m->done = true;
    run_counts_t r1, r2;
    micro_kernel_header(c, "vector", 1, 0);
    micro_text_add(&c->k, "block 0\nend\n");
    if (micro_run_text(c, micro_fresh_base(c), &r1) != DV_OK)
        return FAIL(m, "empty kernel failed: %s", c->err.msg);
    micro_kernel_header(c, "vector", c->nvec + 1, 0);
    for (unsigned b = 0; b <= c->nvec; b++)
        micro_text_add(&c->k, "block %u\n", b);
    micro_text_add(&c->k, "end\n");
    if (micro_run_text(c, micro_fresh_base(c), &r2) != DV_OK)
        return FAIL(m, "empty kernel of %u blocks failed: %s", c->nvec + 1, c->err.msg);
    if (r2.cycles < r1.cycles || r1.cycles < r2.cycles - r1.cycles)
        return FAIL(m, "T(1 block) = %llu, T(%u blocks) = %llu: not one more block start", ull(r1.cycles),
                    c->nvec + 1, ull(r2.cycles));
    c->bs = r2.cycles - r1.cycles;
    c->ks = r1.cycles - c->bs;
    snprintf(c->start_how, sizeof c->start_how, "T(1 block) = %llu, T(%u blocks) = %llu", ull(r1.cycles),
             c->nvec + 1, ull(r2.cycles));
    return m->rc = MS_OK;
}

void mb_block_start(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    study_start(c);
    if (micro_usable(&c->start_m, r))
        micro_figure(r, c->bs, c->bs, "%s", c->start_how);
}

void mb_kernel_start(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    study_start(c);
    if (micro_usable(&c->start_m, r))
        micro_figure(r, c->ks, c->ks, "%s; T(1 block) - %llu", c->start_how, ull(c->bs));
}

/* The cycles one more `line` costs the scalar unit: kernels of 1 and 65 of them, (T(65) - T(1)) / 64. */
static void one_vs_65(micro_ctx_t *c, const char *line, dv_micro_result_t *r)
{
    outcome_t m = {0};
    uint64_t t1, t65;
    if (micro_time_body(c, &m, false, 0, 0, &t1, line) != MS_OK)
        goto fail;
    micro_text_clear(&c->b);
    for (int i = 0; i < 65; i++)
        micro_text_add(&c->b, line);
    run_counts_t rr;
    if (micro_run_body(c, false, 0, 0, &rr) != DV_OK) {
        FAIL(&m, "kernel failed: %s", c->err.msg);
        goto fail;
    }
    t65 = rr.cycles;
    if (t65 < t1 || (t65 - t1) % 64) {
        FAIL(&m, "T(65) - T(1) = %lld is not a multiple of 64", (long long)(t65 - t1));
        goto fail;
    }
    micro_figure(r, (t65 - t1) / 64, (t65 - t1) / 64, "T(1) = %llu, T(65) = %llu", ull(t1), ull(t65));
    return;
fail:
    micro_usable(&m, r);
}

void mb_scalar_issue(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    one_vs_65(c, MASK, r);
}

/* arg 0: ld_ub, 1: st_ub. */
void mb_scalar_access(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    one_vs_65(c, arg ? "st_ub dst=ub:0x0 dtype=f32 value=0x3f800000\n" : "ld_ub src=ub:0x0 dtype=f32\n", r);
}

/* The vector instruction of a flag round trip. */
static const char *const vop = "vadds dst=ub:0x200 src=ub:0x0 dtype=f16 scalar=1 repeat=1\n";

/* N flag round trips S -> V -> S around a vadds (flags), or the same with the flags replaced. */
static int flag_rounds(micro_ctx_t *c, outcome_t *m, unsigned n, bool flags, uint64_t *t)
{
    micro_text_clear(&c->b);
    for (unsigned i = 0; i < n; i++) {
        if (flags)
            micro_text_add(&c->b,
                           "wait_flag src=S dst=V id=0\n%sset_flag src=V dst=S id=0\nset_flag src=S dst=V id=0\n"
                           "wait_flag src=V dst=S id=0\n",
                           vop);
        else /* the vadds issued third: it starts one hop earlier than in the flag version; a barrier waits */
            micro_text_add(&c->b, MASK MASK "%s" MASK "pipe_barrier pipe=ALL\n", vop);
    }
    run_counts_t rr;
    if (micro_run_body(c, false, 0, 0, &rr) != DV_OK)
        return FAIL(m, "kernel failed: %s", c->err.msg);
    *t = rr.cycles;
    return MS_OK;
}

typedef int (*rounds_fn)(micro_ctx_t *c, outcome_t *m, unsigned n, bool flags, uint64_t *t);

/* A flag latency from round trips of two hops each: the difference between lo and hi round trips,
 * minus the same difference of the control kernels, over the hops it adds. */
static void rounds_figure(micro_ctx_t *c, dv_micro_result_t *r, rounds_fn fn, unsigned lo, unsigned hi)
{
    outcome_t m = {0};
    uint64_t f1 = 0, f2 = 0, c1 = 0, c2 = 0;
    if (fn(c, &m, lo, true, &f1) || fn(c, &m, hi, true, &f2) || fn(c, &m, lo, false, &c1) ||
        fn(c, &m, hi, false, &c2)) {
        micro_usable(&m, r);
        return;
    }
    const unsigned hops = 2 * (hi - lo);
    const long long d = (long long)(f2 - f1) - (long long)(c2 - c1);
    if (d < 0 || d % hops) {
        FAIL(&m, "round trips %llu, %llu; control %llu, %llu: difference %lld is not %u hops' worth", ull(f1), ull(f2),
             ull(c1), ull(c2), d, hops);
        micro_usable(&m, r);
        return;
    }
    micro_figure(r, (uint64_t)d / hops, (uint64_t)d / hops, "T(%u, %u round trips) = %llu, %llu; control %llu, %llu",
                 lo, hi, ull(f1), ull(f2), ull(c1), ull(c2));
}

void mb_flag_latency(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    /* the control takes the flags' hops out only while the vadds outlasts one scalar issue */
    outcome_t m = {0};
    uint64_t tm, tv;
    if (micro_time_mask(c, false, &tm, &m) != MS_OK || micro_time_body(c, &m, false, 0, 0, &tv, "%s", vop) != MS_OK) {
        micro_usable(&m, r);
        return;
    }
    if (tv < tm + c->cfg.scalar_issue_cycles) {
        micro_row_na(
            r, "the vadds of a round trip (%llu cycles) is shorter than one scalar issue (scalar.issue_cycles = %llu)",
            ull(tv - tm), ull(c->cfg.scalar_issue_cycles));
        return;
    }
    rounds_figure(c, r, flag_rounds, 1, 9);
}

/* A mix kernel of n cross-core round trips AIC -> AIVs -> AIC, or the control. */
static int cross_rounds(micro_ctx_t *c, outcome_t *m, unsigned n, bool flags, uint64_t *t)
{
    micro_kernel_header(c, "mix", 1, 0);
    micro_text_add(&c->k, "block 0 aic\n");
    for (unsigned i = 0; i < n; i++)
        micro_text_add(&c->k, flags ? "set_cross_flag pipe=S mode=2 id=0\nwait_cross_flag pipe=S id=1\n" : MASK MASK);
    for (uint32_t sub = DV_SUB_AIV0; sub < dv_topo_kernel_subs(&c->cfg, DV_KIND_MIX); sub++) {
        char name[16];
        micro_text_add(&c->k, "block 0 %s\n", dv_topo_sub_name(sub, name, sizeof name));
        for (unsigned i = 0; i < n; i++)
            micro_text_add(&c->k,
                           flags ? "wait_cross_flag pipe=S id=0\nset_cross_flag pipe=S mode=2 id=1\n" : MASK MASK);
    }
    micro_text_add(&c->k, "end\n");
    run_counts_t rr;
    if (micro_run_text(c, micro_fresh_base(c), &rr) != DV_OK)
        return FAIL(m, "mix kernel failed: %s", c->err.msg);
    *t = rr.cycles;
    return MS_OK;
}

void mb_cross_latency(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    if (dv_topo_kernel_subs(&c->cfg, DV_KIND_MIX) == 0 || c->cfg.sync_cross_flag_ids < 2) {
        micro_row_na(r, "cross-core flags need a split chip (AIC + AIVs) and 2 flag ids");
        return;
    }
    rounds_figure(c, r, cross_rounds, 1, 5);
}

/* ================================================================ queues */

/* Whether K back-to-back slow instructions on pipe p stall the scalar unit (queue full), and the
 * kernel's cycles. */
static int queue_stalls(micro_ctx_t *c, outcome_t *m, dv_pipe_t p, unsigned k, bool *stall, uint64_t *t)
{
    char line[256];
    bool cube = false;
    uint64_t bytes = 0;
    const dv_config_t *g = &c->cfg;
    switch (p) {
    case DV_PIPE_V:
        snprintf(line, sizeof line, "vdiv dst=ub:0x200 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=255\n");
        break;
    case DV_PIPE_M:
        snprintf(line, sizeof line, "mmad c=l0c:0x0 a=l0a:0x0 b=l0b:0x0 dtype=f32 m=64 k=128 n=64 init=1\n");
        cube = true;
        break;
    case DV_PIPE_MTE1:
        snprintf(line, sizeof line, "load_cbuf_to_ca dst=l0a:0x0 src=l1:0x0 dtype=f16 repeat=%llu\n",
                 ull(dv_min_u64(DV_REPEAT_MAX, g->l0a_size_bytes / 512)));
        cube = true;
        break;
    case DV_PIPE_MTE2:
        snprintf(line, sizeof line, "copy_gm_to_ubuf dst=ub:0x0 src=x+0x0 nburst=1 len=2048\n");
        bytes = 65536;
        break;
    case DV_PIPE_MTE3:
        snprintf(line, sizeof line, "copy_ubuf_to_gm dst=x+0x0 src=ub:0x0 nburst=1 len=2048\n");
        bytes = 65536;
        break;
    default:
        snprintf(line, sizeof line,
                 "copy_matrix_cc_to_cbuf dst=l1:0x0 src=l0c:0x0 n_size=16 m_size=1024 src_stride=1024 dst_stride=16\n");
        cube = true;
        break;
    }
    micro_text_clear(&c->b);
    for (unsigned i = 0; i < k; i++)
        micro_text_add(&c->b, "%s", line);
    run_counts_t rr;
    if (micro_run_body(c, cube, bytes, 0, &rr) != DV_OK)
        return FAIL(m, "%u x %.60s failed: %s", k, line, c->err.msg);
    *stall = rr.qstall > 0;
    *t = rr.cycles;
    return MS_OK;
}

void mb_queue_depth(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    const dv_pipe_t p = (dv_pipe_t)arg;
    const dv_config_t *g = &c->cfg;
    if (p == DV_PIPE_FIX && !g->chip_has_fix_pipe) {
        micro_row_na(r, "no FIX pipe on this chip");
        return;
    }
    if ((p == DV_PIPE_M || p == DV_PIPE_MTE1) && g->l0a_size_bytes < 32768) {
        micro_row_na(r, "L0A too small for the slow instruction");
        return;
    }
    outcome_t m = {0};
    bool stall, stall2;
    uint64_t t1, t2, t;
    unsigned lo = 1, hi = 1026; /* K = depth + 1 never stalls, depth + 2 does (depth <= 1024) */
    if (queue_stalls(c, &m, p, lo, &stall, &t1) != MS_OK || queue_stalls(c, &m, p, 2, &stall2, &t2) != MS_OK)
        goto fail;
    if (stall) {
        FAIL(&m, "one instruction already stalls the scalar unit");
        goto fail;
    }
    /* The queue fills only while the first instruction holds the pipe: the scalar unit must issue
     * depth + 2 of them within its occupancy occ = T(2) - T(1). */
    const uint64_t depth = p == DV_PIPE_V ? g->queue_v_depth : p == DV_PIPE_M ? g->queue_m_depth
                         : p == DV_PIPE_MTE1 ? g->queue_mte1_depth : p == DV_PIPE_MTE2 ? g->queue_mte2_depth
                         : p == DV_PIPE_MTE3 ? g->queue_mte3_depth : g->queue_fix_depth;
    if (t2 <= t1 || t2 - t1 <= (depth + 2) * (g->scalar_issue_cycles ? g->scalar_issue_cycles : 1)) {
        micro_row_na(r,
                     "the slow %s instruction holds its pipe %lld cycles, too few for the scalar unit to fill a queue "
                     "of %llu",
                     dv_pipe_name(p), (long long)(t2 - t1), ull(depth));
        return;
    }
    if (queue_stalls(c, &m, p, hi, &stall, &t) != MS_OK)
        goto fail;
    if (!stall) {
        FAIL(&m, "%u instructions do not stall the scalar unit", hi);
        goto fail;
    }
    while (hi - lo > 1) {
        const unsigned mid = lo + (hi - lo) / 2;
        if (queue_stalls(c, &m, p, mid, &stall, &t) != MS_OK)
            goto fail;
        *(stall ? &hi : &lo) = mid;
    }
    micro_figure(r, lo - 1, lo - 1, "%u %s instructions issue without a stall, %u stall", lo, dv_pipe_name(p), hi);
    return;
fail:
    micro_usable(&m, r);
}

/* ================================================================ vector classes */

static void set_field_int(dv_insn_t *in, const char *name, int64_t v)
{
    const int k = dv_field_index((dv_op_t)in->op, name);
    if (k >= 0)
        in->f[k].i = v;
}

static void set_field_ub(dv_insn_t *in, const char *name, uint64_t off)
{
    const int k = dv_field_index((dv_op_t)in->op, name);
    if (k >= 0)
        in->f[k].u = DV_ADDR(DV_SPACE_UB, off);
}

/* The first instruction of vector class vc that takes a repeat count and elements of `width` bytes
 * (the widest element decides the rate), as canonical text at repeat R.  Operands as in
 * tests/check_timing.c: src0 at row 0, src1 at row 8, dst at row 16, each moving 8 rows per repeat,
 * so no two rows of one repeat meet in a bank group; reductions re-read rows 0..7. */
static bool vector_insn_text(const dv_config_t *cfg, int vc, unsigned width, unsigned R, char *out, size_t cap)
{
    static const dv_dtype_t pref16[] = {DV_DT_F16, DV_DT_BF16, DV_DT_S16, DV_DT_U16};
    static const dv_dtype_t pref32[] = {DV_DT_F32, DV_DT_S32, DV_DT_U32};
    for (int op = 0; op < DV_OP_COUNT; op++) {
        const dv_op_spec_t *os = dv_op_spec((dv_op_t)op);
        if (os->pipe != DV_PIPE_V || (int)os->cost != DV_COST_V_ADD + vc || dv_field_index((dv_op_t)op, "repeat") < 0)
            continue;
        dv_dtype_t src = DV_DT_COUNT, dst = DV_DT_COUNT;
        if (os->form == DV_FORM_VCONV) {
            for (int s = 0; s < DV_DT_COUNT && src == DV_DT_COUNT; s++)
                for (int d = 0; d < DV_DT_COUNT; d++) {
                    const unsigned w = dv_dtype_size((dv_dtype_t)s) > dv_dtype_size((dv_dtype_t)d)
                                           ? dv_dtype_size((dv_dtype_t)s) : dv_dtype_size((dv_dtype_t)d);
                    if (dv_conv_allowed((dv_dtype_t)s, (dv_dtype_t)d) && w == width) {
                        src = (dv_dtype_t)s;
                        dst = (dv_dtype_t)d;
                        break;
                    }
                }
        } else {
            const dv_dtype_t *pref = width == 2 ? pref16 : pref32;
            const int np = width == 2 ? 4 : 3;
            for (int i = 0; i < np && src == DV_DT_COUNT; i++)
                if (os->dtypes & (1u << pref[i]))
                    src = dst = pref[i];
        }
        if (src == DV_DT_COUNT)
            continue;
        dv_insn_t in;
        dv_insn_init(&in, (dv_op_t)op);
        set_field_ub(&in, "dst", 0x200);
        set_field_ub(&in, "src", 0x0);
        set_field_ub(&in, "src0", 0x0);
        set_field_ub(&in, "src1", 0x100);
        set_field_ub(&in, "sel", cfg->ub_size_bytes / 2 / 32 * 32);
        set_field_int(&in, "dtype", src);
        set_field_int(&in, "src_type", src);
        set_field_int(&in, "dst_type", dst);
        set_field_int(&in, "repeat", R);
        set_field_int(&in, "dst_rep", os->form == DV_FORM_VREDUCE ? 1 : 8);
        if (os->form == DV_FORM_VREDUCE)
            set_field_int(&in, "src_rep", 0);
        const dv_kernel_info_t noargs = {0};
        return dv_trace_format_insn(&in, &noargs, out, cap) > 0;
    }
    return false;
}

/* copy_matrix_cc_to_ubuf, the l0c class: 16 columns x 4R rows of f32 are R repeats of 256 B. */
static void l0c_insn_text(unsigned R, char *out, size_t cap)
{
    snprintf(out, cap, "copy_matrix_cc_to_ubuf dst=ub:0x0 src=l0c:0x0 n_size=16 m_size=%u src_stride=%u dst_stride=16",
             4 * R, 4 * R);
}

static const char *const vc_names[] = {
#define DV_VCOST(id, name, d) name,
#include "isa.def"
};

static const unsigned vreps[] = {1, 8, 37, 200, 255};
#define NVREPS ((int)(sizeof vreps / sizeof vreps[0]))

static int study_vec(micro_ctx_t *c, int vc, unsigned width)
{
    vector_study_t *v = &c->vec[vc][width == 4];
    outcome_t *m = &v->m;
    if (m->done)
        return m->rc;
    m->done = true;
    const uint64_t rb = c->cfg.vector_repeat_bytes;
    uint64_t x[NVREPS], occ[NVREPS], tm, t0;
    char line[512];
    run_counts_t rr;
    if (micro_time_mask(c, false, &tm, m) != MS_OK)
        return m->rc;
    if (vc == DV_VC_L0C) {
        if (width == 2)
            return NA(m, "copy_matrix_cc_to_ubuf, the only l0c-class instruction, always reads 32-bit accumulators");
        if (!c->cfg.chip_l0c_to_ub)
            return NA(m, "no L0C -> UB path on this chip (chip.l0c_to_ub)");
        /* occ(R) = T(B; C_R) - T(B) with B = C_255: R = 0 is not expressible */
        char big[256];
        uint64_t tbig, t1 = 0;
        l0c_insn_text(255, big, sizeof big);
        snprintf(v->insn, sizeof v->insn, "%s", big);
        if (micro_time_body(c, m, false, 0, 0, &tbig, "%s\n", big) != MS_OK)
            return m->rc;
        for (int i = 0; i < NVREPS; i++) {
            uint64_t t;
            l0c_insn_text(vreps[i], line, sizeof line);
            if (micro_time_body(c, m, false, 0, 0, &t, "%s\n%s\n", big, line) != MS_OK)
                return m->rc;
            x[i] = vreps[i] * rb;
            occ[i] = t - tbig;
            if (i == 0 && micro_time_body(c, m, false, 0, 0, &t1, "%s\n", line) != MS_OK)
                return m->rc;
        }
        micro_rate_range(x, occ, NVREPS, &v->lo, &v->hi);
        v->lat = t1 - tm - occ[0];
        snprintf(v->how, sizeof v->how,
                 "occ(1, 8, 37, 200, 255 repeats) = %llu, %llu, %llu, %llu, %llu after a 255-repeat copy",
                 ull(occ[0]), ull(occ[1]), ull(occ[2]), ull(occ[3]), ull(occ[4]));
        return m->rc = MS_OK;
    }
    if (!vector_insn_text(&c->cfg, vc, width, 0, line, sizeof line))
        return NA(m, "no %s-class instruction takes %u-bit elements", vc_names[vc], width * 8);
    snprintf(v->insn, sizeof v->insn, "%s", line);
    micro_text_clear(&c->b);
    micro_text_add(&c->b, "%s\n", line);
    if (micro_run_body(c, false, 0, 0, &rr) != DV_OK)
        return FAIL(m, "%s failed: %s", line, c->err.msg);
    t0 = rr.cycles;
    /* The operands are laid out in distinct banks; where the bank geometry makes conflicts
     * unavoidable (fewer bank groups than rows a repeat reads), the conflict cycles the model
     * counted are taken off each occupancy (docs/MODEL.md adds them to the rate's cycles). */
    uint64_t conflicts = 0;
    for (int i = 0; i < NVREPS; i++) {
        vector_insn_text(&c->cfg, vc, width, vreps[i], line, sizeof line);
        micro_text_clear(&c->b);
        micro_text_add(&c->b, "%s\n", line);
        if (micro_run_body(c, false, 0, 0, &rr) != DV_OK)
            return FAIL(m, "%s failed: %s", line, c->err.msg);
        if (rr.cycles < t0 + rr.conflicts)
            return FAIL(m, "%s: T = %llu with %llu bank-conflict cycles, below T(repeat 0) = %llu", line,
                        ull(rr.cycles), ull(rr.conflicts), ull(t0));
        x[i] = vreps[i] * rb;
        occ[i] = rr.cycles - t0 - rr.conflicts;
        conflicts += rr.conflicts;
    }
    micro_rate_range(x, occ, NVREPS, &v->lo, &v->hi);
    v->lat = t0 - tm;
    snprintf(v->how, sizeof v->how, "occ(1, 8, 37, 200, 255 repeats) = %llu, %llu, %llu, %llu, %llu%s", ull(occ[0]),
             ull(occ[1]), ull(occ[2]), ull(occ[3]), ull(occ[4]),
             conflicts ? ", less the bank-conflict cycles counted" : "");
    return m->rc = MS_OK;
}

/* The schema's largest value of a parameter: the top of a rate range no cycle count bounds. */
static uint64_t schema_maximum(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static uint64_t schema_maximum(const char *fmt, ...)
{
    char path[96];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(path, sizeof path, fmt, ap);
    va_end(ap);
    const dv_param_spec_t *sp = dv_param_find(path);
    return sp ? sp->max : UINT64_MAX;
}

/* The study of the row's vector class and width (arg = DV_MICRO_VARG), with its mnemonic in insn;
 * NULL when it is not usable (r says why). */
static const vector_study_t *vector_row_study(micro_ctx_t *c, int arg, dv_micro_result_t *r, char insn[48])
{
    const int vc = arg / 8;
    const unsigned width = (unsigned)(arg % 8);
    study_vec(c, vc, width);
    const vector_study_t *v = &c->vec[vc][width == 4];
    if (!micro_usable(&v->m, r))
        return NULL;
    snprintf(insn, 48, "%s", v->insn);
    insn[strcspn(insn, " ")] = '\0';
    return v;
}

void mb_vec_rate(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    char insn[48];
    const vector_study_t *v = vector_row_study(c, arg, r, insn);
    if (v)
        micro_figure(r, v->lo,
                     v->hi != UINT64_MAX
                         ? v->hi
                         : schema_maximum("vector.%s.b%d_bytes_per_cycle", vc_names[arg / 8], 8 * (arg % 8)),
                     "%s: %s", insn, v->how);
}

void mb_vec_latency(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    char insn[48];
    const vector_study_t *v = vector_row_study(c, arg, r, insn);
    if (v)
        micro_figure(r, v->lat, v->lat, "%s: %s = %llu", insn,
                     arg / 8 == DV_VC_L0C ? "T(1 repeat) - T(mask) - occ(1 repeat)" : "T(repeat 0) - T(mask)",
                     ull(v->lat));
}

/* ================================================================ cube */

static int time_mmad(micro_ctx_t *c, outcome_t *m, dv_dtype_t dt, unsigned mm, unsigned k, unsigned n, uint64_t *t)
{
    return micro_time_body(c, m, true, 0, 0, t, "mmad c=l0c:0x0 a=l0a:0x0 b=l0b:0x0 dtype=%s m=%u k=%u n=%u init=1\n",
                           dv_dtype_name(dt), mm, k, n);
}

void mb_cube_mnk(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    const dv_dtype_t dt = arg < 2 ? DV_DT_F16 : (dv_dtype_t)(arg - 2);
    outcome_t m = {0};
    uint64_t t1, t;
#define MMAD_AT(v, out) time_mmad(c, &m, dt, arg == 0 ? (v) : 1, arg >= 2 ? (v) : 1, arg == 1 ? (v) : 1, out)
    if (MMAD_AT(1, &t1) != MS_OK)
        goto fail;
    /* ceil(v / V0) does not decrease with v: the largest v costing what v = 1 costs is V0 */
    unsigned lo = 1, hi = 256;
    if (MMAD_AT(256, &t) != MS_OK)
        goto fail;
    if (t == t1)
        lo = 256;
    while (hi - lo > 1 && lo < 256) {
        const unsigned mid = lo + (hi - lo) / 2;
        if (MMAD_AT(mid, &t) != MS_OK)
            goto fail;
        *(t == t1 ? &lo : &hi) = mid;
    }
#undef MMAD_AT
    micro_figure(r, lo, lo, "%s: %s = 1..%u cost %llu cycles, %s = %u more", dv_dtype_name(dt),
                 arg == 0   ? "m"
                 : arg == 1 ? "n"
                            : "k",
                 lo, ull(t1),
                 arg == 0   ? "m"
                 : arg == 1 ? "n"
                            : "k",
                 lo + 1);
    return;
fail:
    micro_usable(&m, r);
}

void mb_cube_latency(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    outcome_t m = {0};
    uint64_t tm, t1, tb, tbb;
    static const char *const big = "mmad c=l0c:0x0 a=l0a:0x0 b=l0b:0x0 dtype=f16 m=64 k=64 n=64 init=1\n";
    static const char *const one = "mmad c=l0c:0x0 a=l0a:0x0 b=l0b:0x0 dtype=f16 m=1 k=1 n=1 init=1\n";
    uint64_t t2;
    if (micro_time_mask(c, true, &tm, &m) || micro_time_body(c, &m, true, 0, 0, &t1, "%s", one) ||
        micro_time_body(c, &m, true, 0, 0, &tb, "%s", big) ||
        micro_time_body(c, &m, true, 0, 0, &tbb, "%s%s", big, one) ||
        micro_time_body(c, &m, true, 0, 0, &t2, "%s%s", big, big) ||
        micro_occ_seen(c, &m, t2 - tb, "a 64 x 64 x 64 mmad")) {
        micro_usable(&m, r);
        return;
    }
    micro_latency_figure(r, t1, tm, tbb - tb, "1x1x1");
}

/* ================================================================ MTE1 */

static int study_mte1(micro_ctx_t *c, int b)
{
    outcome_t *m = &c->mte1_m[b];
    if (m->done)
        return m->rc;
    m->done = true;
    if (b == 2 && !c->cfg.chip_load_transpose)
        return NA(m, "no transposing loads on this chip (chip.load_transpose = false)");
    const uint64_t size = b ? c->cfg.l0b_size_bytes : c->cfg.l0a_size_bytes;
    const char *mn = b == 2 ? "load_cbuf_to_cb_transpose dst=l0b"
                     : b    ? "load_cbuf_to_cb dst=l0b"
                            : "load_cbuf_to_ca dst=l0a";
    const unsigned rmax = (unsigned)dv_min_u64(DV_REPEAT_MAX, dv_min_u64(size, c->cfg.l1_size_bytes) / 512);
    if (rmax < 2)
        return NA(m, "L0%c holds fewer than 2 fractals", b ? 'B' : 'A');
    unsigned reps[4] = {1, 3, 37, rmax};
    uint64_t x[4], occ[4], tb, t;
    int n = 0;
    if (micro_time_body(c, m, true, 0, 0, &tb, "%s:0x0 src=l1:0x0 dtype=f16 repeat=%u\n", mn, rmax) != MS_OK ||
        micro_time_body(c, m, true, 0, 0, &t,
                        "%s:0x0 src=l1:0x0 dtype=f16 repeat=%u\n%s:0x0 src=l1:0x0 dtype=f16 repeat=%u\n", mn, rmax, mn,
                        rmax) != MS_OK ||
        micro_occ_seen(c, m, t - tb, "the full-size load") != MS_OK)
        return m->rc;
    for (int i = 0; i < 4; i++) {
        if (reps[i] > rmax || (i > 0 && reps[i] <= reps[i - 1]))
            continue;
        if (micro_time_body(c, m, true, 0, 0, &t,
                            "%s:0x0 src=l1:0x0 dtype=f16 repeat=%u\n%s:0x0 src=l1:0x0 dtype=f16 repeat=%u\n", mn, rmax,
                            mn, reps[i]) != MS_OK)
            return m->rc;
        x[n] = 512ull * reps[i];
        occ[n++] = t - tb;
    }
    micro_rate_range(x, occ, n, &c->mte1_lo[b], &c->mte1_hi[b]);
    c->mte1_occ1[b] = occ[0];
    snprintf(c->mte1_how[b], sizeof c->mte1_how[b],
             "occ(1, 3, 37, %u fractals) = %llu, %llu, %llu, %llu after a %u-fractal load",
             rmax, ull(occ[0]), ull(n > 1 ? occ[1] : 0), ull(n > 2 ? occ[2] : 0), ull(n > 3 ? occ[3] : 0), rmax);
    return m->rc = MS_OK;
}

void mb_mte1_rate(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    const int b = arg == DV_SPACE_L0B;
    study_mte1(c, b);
    if (micro_usable(&c->mte1_m[b], r))
        micro_figure(r, c->mte1_lo[b],
                     c->mte1_hi[b] != UINT64_MAX ? c->mte1_hi[b]
                                                 : schema_maximum("mte1.l0%c_bytes_per_cycle", b ? 'b' : 'a'),
                     "%s", c->mte1_how[b]);
}

void mb_mte1_latency(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    outcome_t m = {0};
    uint64_t tm, t, tt;
    if (micro_time_mask(c, true, &tm, &m) != MS_OK) {
        micro_usable(&m, r);
        return;
    }
    if (arg == 0) {
        study_mte1(c, 0);
        if (!micro_usable(&c->mte1_m[0], r))
            return;
        if (micro_time_body(c, &m, true, 0, 0, &t, "load_cbuf_to_ca dst=l0a:0x0 src=l1:0x0 dtype=f16 repeat=1\n") !=
            MS_OK) {
            micro_usable(&m, r);
            return;
        }
        micro_latency_figure(r, t, tm, c->mte1_occ1[0], "1 fractal");
        return;
    }
    static const char *const i2c = "img2col_cbuf_to_ca dst=l0a:0x0 src=l1:0x0 dtype=f16 fmap_h=16 fmap_w=16 c1=1 kh=1 "
                                   "kw=1 m_ext=256 k_ext=16\n";
    if (micro_time_body(c, &m, true, 0, 0, &t, "%s", i2c) ||
        micro_time_body(c, &m, true, 0, 0, &tt, "%s%s", i2c, i2c) || micro_occ_seen(c, &m, tt - t, "img2col")) {
        micro_usable(&m, r);
        return;
    }
    micro_latency_figure(r, t, tm, tt - t, "img2col");
}

/* The transposing load (load_cbuf_to_cb_transpose, f16: one fractal per square), timed as a load2d:
 * arg 0 its rate (the study of mb_mte1_rate on it), 1 its latency T(load) - T(mask) - occ(load). */
void mb_mte1_transpose(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    study_mte1(c, 2);
    if (!micro_usable(&c->mte1_m[2], r))
        return;
    if (arg == 0) {
        micro_figure(r, c->mte1_lo[2],
                     c->mte1_hi[2] != UINT64_MAX ? c->mte1_hi[2] : schema_maximum("mte1.l0b_bytes_per_cycle"), "%s",
                     c->mte1_how[2]);
        return;
    }
    outcome_t m = {0};
    uint64_t tm, t;
    if (micro_time_mask(c, true, &tm, &m) != MS_OK ||
        micro_time_body(c, &m, true, 0, 0, &t,
                        "load_cbuf_to_cb_transpose dst=l0b:0x0 src=l1:0x0 dtype=f16 repeat=1\n")) {
        micro_usable(&m, r);
        return;
    }
    micro_latency_figure(r, t, tm, c->mte1_occ1[2], "1 transposed fractal");
}

/* ================================================================ ordering rules (docs/MODEL.md "Core") */

/* The full-size load of L0A the ordering rows put on MTE1 (its occupancy hides the scalar issues). */
static void full_load(micro_ctx_t *c, char *out, size_t cap, unsigned *reps)
{
    *reps = (unsigned)dv_min_u64(DV_REPEAT_MAX, dv_min_u64(c->cfg.l0a_size_bytes, c->cfg.l1_size_bytes) / 512);
    snprintf(out, cap, "load_cbuf_to_ca dst=l0a:0x0 src=l1:0x0 dtype=f16 repeat=%u\n", *reps);
}

/* set_flag does not block its pipe: load; pipe_barrier MTE1; load holds MTE1 until the first load has
 * completed (its latency), load; set_flag MTE1->M; load does not.  Figure = the difference. */
void mb_set_flag(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    outcome_t m = {0};
    char ld[128];
    unsigned reps;
    uint64_t t1, t2, tb, tf;
    full_load(c, ld, sizeof ld, &reps);
    if (micro_time_body(c, &m, true, 0, 0, &t1, "%s", ld) || micro_time_body(c, &m, true, 0, 0, &t2, "%s%s", ld, ld) ||
        micro_occ_seen(c, &m, t2 - t1, "the full-size load") ||
        micro_time_body(c, &m, true, 0, 0, &tb, "%spipe_barrier pipe=MTE1\n%s", ld, ld) ||
        micro_time_body(c, &m, true, 0, 0, &tf, "%sset_flag src=MTE1 dst=M id=0\n%s",
                        ld, ld)) {
        micro_usable(&m, r);
        return;
    }
    if (tb < tf) {
        FAIL(&m, "T(load; barrier; load) = %llu < T(load; set_flag; load) = %llu", ull(tb), ull(tf));
        micro_usable(&m, r);
        return;
    }
    micro_figure(r, tb - tf, tb - tf,
                 "%u fractals: T(load; load) = %llu, with pipe_barrier MTE1 %llu, with set_flag %llu",
                 reps, ull(t2), ull(tb), ull(tf));
}

/* An accumulating mmad (init=0 onto the tile the previous mmad writes) starts at that mmad's completion:
 * T(mmad; mmad init=0, same tile) - T(mmad; mmad init=1, another tile) = the latency it waits for. */
void mb_cube_accumulate(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    outcome_t m = {0};
    static const char *const mm = "mmad c=l0c:0x%x a=l0a:0x0 b=l0b:0x0 dtype=f16 m=64 k=64 n=64 init=%d\n";
    const unsigned tile = 64 * 64 * 4;
    uint64_t t1, ti, ta;
    if (c->cfg.l0c_size_bytes < 2ull * tile) {
        micro_row_na(r, "L0C holds fewer than two 64 x 64 f32 tiles");
        return;
    }
    char a[128], b[128], d[128];
    snprintf(a, sizeof a, mm, 0u, 1);
    snprintf(b, sizeof b, mm, tile, 1);
    snprintf(d, sizeof d, mm, 0u, 0);
    if (micro_time_body(c, &m, true, 0, 0, &t1, "%s", a) || micro_time_body(c, &m, true, 0, 0, &ti, "%s%s", a, b) ||
        micro_occ_seen(c, &m, ti - t1, "a 64 x 64 x 64 mmad") ||
        micro_time_body(c, &m, true, 0, 0, &ta, "%s%s", a, d)) {
        micro_usable(&m, r);
        return;
    }
    if (ta < ti) {
        FAIL(&m, "T(accumulating pair) = %llu < T(independent pair) = %llu", ull(ta), ull(ti));
        micro_usable(&m, r);
        return;
    }
    micro_figure(r, ta - ti, ta - ti, "T(mmad) = %llu, T(mmad; mmad other tile) = %llu, T(mmad; mmad init=0) = %llu",
                 ull(t1), ull(ti), ull(ta));
}

/* UnitFlag: a FixPipe of unit_flag 2 after an mmad of unit_flag 3 on the same tile starts at the
 * mmad's first output fractal, ceil(occ(mmad) / F) + cube.latency_cycles after the mmad's start (F
 * fractals of 16 x 16), not at its completion and without events.  The FixPipe reads a large part of
 * L0C, so it ends on its own time: T(mmad; fix) - T(mask; fix) = that start - one scalar issue
 * (the fix is issued second in both), the issue being T(mask; mask) - T(mask).
 * Figure = T(mmad; fix) - T(mask; fix) + issue - ceil(occ(mmad) / F). */
void mb_unit_flag(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    const dv_config_t *g = &c->cfg;
    if (!g->chip_has_fix_pipe) {
        micro_row_na(r, "no FIX pipe on this chip");
        return;
    }
    /* 64 x 16 output (F = 4 fractals) over k = 8 slices of the f16 depth */
    const unsigned k = (unsigned)dv_min_u64(4095, 8 * g->cube_k_f16), F = 4;
    const unsigned rows = (unsigned)(dv_min_u64(g->l0c_size_bytes, g->l1_size_bytes) / 64 * 7 / 8);
    /* rows >= 128: the FixPipe reads >= 8 KB, so one fractal's read (1 KB) is <= occ(fix) / 8 (+ rounding) */
    if (rows < 128 || 128ull * k > g->l0a_size_bytes || 32ull * k > g->l0b_size_bytes) {
        micro_row_na(r, "L0 buffers too small for a 64 x %u x 16 mmad and an 8 KB FixPipe read", k);
        return;
    }
    char mm[160], m2[160], fx[200], fu[200];
    snprintf(mm, sizeof mm, "mmad c=l0c:0x0 a=l0a:0x0 b=l0b:0x0 dtype=f16 m=64 k=%u n=16 init=1 unit_flag=3\n", k);
    snprintf(m2, sizeof m2, "mmad c=l0c:0x1000 a=l0a:0x0 b=l0b:0x0 dtype=f16 m=64 k=%u n=16 init=1\n", k);
    snprintf(fx, sizeof fx,
             "copy_matrix_cc_to_cbuf dst=l1:0x0 src=l0c:0x0 n_size=16 m_size=%u src_stride=%u dst_stride=16\n", rows,
             rows);
    snprintf(fu, sizeof fu,
             "copy_matrix_cc_to_cbuf dst=l1:0x0 src=l0c:0x0 n_size=16 m_size=%u src_stride=%u dst_stride=16 "
             "unit_flag=2\n",
             rows, rows);
    outcome_t m = {0};
    uint64_t tm, tmm, tmb, tm2, tf, tff, tu;
    if (micro_time_mask(c, true, &tm, &m) || micro_time_body(c, &m, true, 0, 0, &tmm, MASK MASK) ||
        micro_time_body(c, &m, true, 0, 0, &tmb, "%s", mm) ||
        micro_time_body(c, &m, true, 0, 0, &tm2, "%s%s", mm, m2) ||
        micro_occ_seen(c, &m, tm2 - tmb, "the mmad") || micro_time_body(c, &m, true, 0, 0, &tf, MASK "%s", fx) ||
        micro_time_body(c, &m, true, 0, 0, &tff, MASK "%s%s", fx, fx) ||
        micro_time_body(c, &m, true, 0, 0, &tu, "%s%s", mm, fu)) {
        micro_usable(&m, r);
        return;
    }
    const uint64_t issue = tmm - tm, occ_m = tm2 - tmb, occ_f = tff - tf, step = dv_ceil_div(occ_m, F);
    /* the FixPipe ends on its own time while occ(fix) >= occ(mmad) - step + one fractal's read (<= occ(fix) / 8) */
    if (occ_f < occ_m + occ_f / 8) {
        micro_row_na(r, "the FixPipe (occ %llu) does not outlast the mmad (occ %llu): its end rule would bind",
                     ull(occ_f), ull(occ_m));
        return;
    }
    if (tu <= tf) {
        micro_row_na(r, "the FixPipe's start is hidden behind its issue (T(mmad; fix) = %llu, T(mask; fix) = %llu)",
                     ull(tu), ull(tf));
        return;
    }
    if (tu - tf + issue < step) {
        FAIL(&m, "T(mmad; fix) - T(mask; fix) + issue = %llu < ceil(occ(mmad) / %u) = %llu", ull(tu - tf + issue), F,
             ull(step));
        micro_usable(&m, r);
        return;
    }
    const uint64_t v = tu - tf + issue - step;
    micro_figure(r, v, v, "T(mmad; fix) = %llu, T(mask; fix) = %llu, issue %llu, occ(mmad) = %llu over %u fractals",
                 ull(tu), ull(tf), ull(issue), ull(occ_m), F);
}
