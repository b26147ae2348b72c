/* tests/check_robust.c - bad input never crashes: random kernels built from the ISA table (random
 * opcodes, field values anywhere in their ranges, addresses in and beyond every buffer, random
 * flags that may never be set) run on the model with data.  Each run must end either with a
 * report or with a located error, and the model must stay usable for the next kernel. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dv/config.h"
#include "dv/isa.h"
#include "dv/model.h"
#include "dv/trace.h"
#include "support/dvt.h"

static uint64_t rng_state;
static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static int64_t pick(int64_t lo, int64_t hi) { return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1)); }

/* Whether op can run on the cores of a kernel kind without touching a missing pipe or buffer, and
 * is no synchronisation (which, placed at random, deadlocks). */
static bool fits(const dv_op_spec_t *os, int kind, bool split)
{
    if (os->cost == DV_COST_SYNC || os->form == DV_FORM_IMG2COL)
        return false;
    const bool ub = os->dst_space == DV_SPACE_UB || os->src_space == DV_SPACE_UB || os->pipe == DV_PIPE_V;
    if (!split)
        return os->pipe != DV_PIPE_FIX && os->form != DV_FORM_LOAD2D ? true : os->pipe == DV_PIPE_MTE1;
    if (kind == DV_KIND_VECTOR)
        return ub || os->pipe == DV_PIPE_S;
    return !ub && os->src_space != DV_SPACE_UB && os->pipe != DV_PIPE_MTE3;
}

/* A value for one field: mostly small and plausible, sometimes at the edges of its range. */
static void random_field(const dv_op_spec_t *os, const dv_field_spec_t *fd, dv_val_t *v, uint64_t gm_bytes,
                         bool plausible)
{
    switch (fd->kind) {
    case DV_FK_ADDR: {
        int sp = fd->space >= 0 ? fd->space : fd->space == DV_FS_DST ? (int)os->dst_space : (int)os->src_space;
        if (sp == DV_SPACE_GM) {
            v->u = DV_GM_ADDR(rnd() % 2, rnd() % 8 == 0 ? gm_bytes - 32 : (rnd() % (gm_bytes / 512)) * 512);
        } else if (plausible) {
            v->u = DV_ADDR(sp, (rnd() % 16) * 1024); /* aligned, and inside even the 1 KB BiasTable's neighbours */
        } else {
            uint64_t off = rnd() % 4 == 0 ? rnd() % (1u << 20) : (rnd() % 64) * 512;
            if (rnd() % 8 == 0)
                off += 32; /* misaligned for L0 */
            v->u = DV_ADDR(sp, off);
        }
        break;
    }
    case DV_FK_DTYPE: {
        uint32_t m = os->dtypes ? os->dtypes : 0x1FF;
        int t;
        do
            t = (int)(rnd() % DV_DT_COUNT);
        while (!(m & (1u << t)));
        v->i = t;
        break;
    }
    case DV_FK_F64: v->d = (double)pick(-1000, 1000) / 7.0; break;
    case DV_FK_U64: v->u = rnd() % 3 == 0 ? rnd() % 300 : rnd(); break;
    default: {
        int64_t hi = fd->max;
        if ((plausible || rnd() % 16 != 0) && hi > fd->min + (plausible ? 8 : 64))
            hi = fd->min + (plausible ? 8 : 64); /* keep most runs inside the buffers */
        v->i = pick(fd->min, hi);
    }
    }
}

static int run_random_kernels(const char *profile, int kernels, uint64_t seed)
{
    dv_config_t cfg;
    dvt_config(&cfg, profile, NULL);
    const bool split = cfg.chip_layout == DV_LAYOUT_SPLIT;
    const uint64_t gm_bytes = 1 << 20;
    dv_kernel_info_t info = {.nargs = 2,
                             .args = (dv_arg_t[]){{.name = "x", .bytes = gm_bytes, .dtype = DV_DT_F16},
                                                  {.name = "y", .bytes = gm_bytes, .dtype = DV_DT_F32}}};
    size_t cap = 1 << 16;
    char *text = malloc(cap), line[1024];
    int ok = 0;
    rng_state = seed;
    for (int k = 0; k < kernels; k++) {
        const bool plausible = k % 2 == 0;
        const int kind = split ? (int)(rnd() % (plausible ? 2 : 3)) : (int)(rnd() % 2);
        const int blocks = (int)pick(1, 3), subs = kind == DV_KIND_MIX ? 3 : 1;
        static const char *const kinds[] = {"vector", "cube", "mix"}, *const subn[] = {"aic", "aiv0", "aiv1"};
        size_t n = (size_t)snprintf(text, cap,
                                    "dvtrace 1\nkernel r kind=%s blocks=%d\narg x bytes=%llu dtype=f16 dir=inout\n"
                                    "arg y bytes=%llu dtype=f32 dir=inout\n",
                                    kinds[kind], blocks, (unsigned long long)gm_bytes, (unsigned long long)gm_bytes);
        for (int b = 0; b < blocks; b++)
            for (int s = 0; s < subs; s++) {
                n += (size_t)snprintf(text + n, cap - n, kind == DV_KIND_MIX ? "block %d %s\n" : "block %d\n", b, subn[s]);
                const int count = (int)pick(1, 12);
                for (int i = 0; i < count; i++) {
                    dv_insn_t in;
                    dv_op_t op;
                    do
                        op = (dv_op_t)(rnd() % DV_OP_COUNT);
                    while (plausible && !fits(dv_op_spec(op), kind, split));
                    dv_insn_init(&in, op);
                    const dv_op_spec_t *os = dv_op_spec((dv_op_t)in.op);
                    const dv_form_spec_t *fs = dv_form_spec(os->form);
                    for (int f = 0; f < fs->nfields; f++)
                        if (fs->fields[f].required || rnd() % 2)
                            random_field(os, &fs->fields[f], &in.f[f], gm_bytes, plausible);
                    if (dv_trace_format_insn(&in, &info, line, sizeof line) > 0 && n + strlen(line) + 8 < cap)
                        n += (size_t)snprintf(text + n, cap - n, "%s\n", line);
                }
            }
        snprintf(text + n, cap - n, "end\n");
        dvt_run_t r;
        int rc = dvt_run_text(&r, &cfg, text, true, 0x100000000ull + (uint64_t)k * 0x10000000ull);
        if (rc == DV_OK) {
            ok++;
            ck_assert_uint_ge(r.cnt.cycles, cfg.chip_kernel_start_cycles);
            for (uint32_t c = 0; c < r.cnt.ncores; c++) { /* every wait is counted once, by pipe */
                const dv_core_counters_t *cc = &r.cnt.cores[c];
                uint64_t by_pipe = 0;
                for (int p = 0; p < DV_PIPE_COUNT; p++)
                    by_pipe += cc->pipe_wait_cycles[p];
                ck_assert_uint_eq(by_pipe, cc->stall_queue_full_cycles + cc->stall_flag_cycles + cc->stall_cross_cycles);
                ck_assert_uint_le(cc->pipe_busy[DV_PIPE_V], cc->last_cycle - cc->first_cycle + 1);
            }
        } else {
            ck_assert_msg(rc < 0 && r.err.msg[0], "kernel %d: status %d without a message", k, rc);
        }
        dvt_free(&r);
    }
    /* the model is still usable after all that */
    dvt_run_t r;
    ck_assert_msg(dvt_run_text(&r, &cfg, "dvtrace 1\nkernel t kind=vector blocks=1\nblock 0\nscalar cycles=7\nend\n", true,
                               0x100000000ull) == DV_OK,
                  "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.cycles, dvt_t0(&cfg) + 7);
    dvt_free(&r);
    free(text);
    return ok;
}

START_TEST(test_robust_random_kernels_910b)
{
    int ok = run_random_kernels("ascend910b2", 250, 0x5eed0001);
    ck_assert_int_gt(ok, 25); /* some of them are valid programs and complete */
}
END_TEST

START_TEST(test_robust_random_kernels_310)
{
    int ok = run_random_kernels("ascend310", 250, 0x5eed0002);
    ck_assert_int_gt(ok, 25);
}
END_TEST

/* Random text: arbitrary bytes and mangled instruction lines give located errors, never a crash. */
START_TEST(test_robust_mangled_trace_text)
{
    const char *good = "dvtrace 1\nkernel m kind=vector blocks=1\narg x bytes=4096 dtype=f16 dir=in\nblock 0\n"
                       "copy_gm_to_ubuf dst=ub:0x0 src=x nburst=1 len=64\n"
                       "vadd dst=ub:0x1000 src0=ub:0x0 src1=ub:0x800 dtype=f16 repeat=8\nend\n";
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    const size_t len = strlen(good);
    char *t = malloc(len + 1);
    rng_state = 0x5eed0003;
    for (int i = 0; i < 400; i++) {
        memcpy(t, good, len + 1);
        const int edits = (int)pick(1, 4);
        for (int e = 0; e < edits; e++) {
            size_t at = rnd() % len;
            static const char junk[] = "=: \n#x0-+.zq\xff\x01";
            t[at] = junk[rnd() % (sizeof junk - 1)];
        }
        dvt_run_t r;
        int rc = dvt_run_text(&r, &cfg, t, true, 0x100000000ull);
        if (rc != DV_OK)
            ck_assert_msg(r.err.msg[0] != '\0', "status %d without a message", rc);
        dvt_free(&r);
    }
    free(t);
}
END_TEST

Suite *dv_robust_suite(void)
{
    Suite *s = suite_create("robust");
    TCase *tc = tcase_create("random");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_robust_random_kernels_910b);
    tcase_add_test(tc, test_robust_random_kernels_310);
    tcase_add_test(tc, test_robust_mangled_trace_text);
    suite_add_tcase(s, tc);
    return s;
}
