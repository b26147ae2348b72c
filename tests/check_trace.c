/* tests/check_trace.c - the text trace format (traces/FORMAT.md): round trips, streaming, and every
 * error a user can reach, with its exact location. */
#include <check.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dv/topology.h"
#include "dv/trace.h"
#include "support/dvt.h"
#include "../kernel/trace_syntax.h"

Suite *dv_trace_suite(void);

/* ---------------------------------------------------------------- helpers */

/* Write len bytes of text (NUL bytes included) to a new temporary file; path receives its name. */
static void write_temp_bytes(const char *text, size_t len, char *path, size_t cap)
{
    snprintf(path, cap, "/tmp/dvtrace_test_XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
    close(fd);
}

/* Write text to a new temporary file; path receives its name. */
static void write_temp(const char *text, char *path, size_t cap)
{
    write_temp_bytes(text, strlen(text), path, cap);
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    ck_assert_uint_eq(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

/* The first error of a trace: from open, or from reading its streams in block/sub order. */
static int first_error(dv_kernel_t *k, int rc, dv_error_t *err)
{
    if (rc)
        return rc;
    for (uint32_t b = 0; b < k->info.blocks && !rc; b++)
        for (uint32_t s = 0; s < k->info.subs && !rc; s++) {
            dv_stream_t *st;
            dv_insn_t in;
            rc = k->open(k, b, s, &st, err);
            ck_assert_int_eq(rc, DV_OK);
            while ((rc = st->next(st, &in, err)) > 0)
                ;
            st->close(st);
        }
    dv_trace_close(k);
    return rc;
}

static int open_and_read(const char *text, const char *name, dv_error_t *err)
{
    dv_kernel_t *k = NULL;
    int rc = dv_trace_open_string(text, name, &k, err);
    return first_error(k, rc, err);
}

static int open_file_and_read(const char *path, dv_error_t *err)
{
    dv_kernel_t *k = NULL;
    int rc = dv_trace_open(path, &k, err);
    return first_error(k, rc, err);
}

/* Both readers (file and string) report the same error at file:line:col with msg containing `want`. */
static void expect_error(const char *text, int line, int col, const char *want)
{
    char path[64];
    dv_error_t e1, e2;
    int rc1 = open_and_read(text, "t.trace", &e1);
    ck_assert_msg(rc1 < 0, "no error for:\n%s", text);
    ck_assert_str_eq(e1.file, "t.trace");
    ck_assert_msg(e1.line == line && e1.col == col && strstr(e1.msg, want),
                  "expected %d:%d '%s', got %d:%d '%s'", line, col, want, e1.line, e1.col, e1.msg);

    write_temp(text, path, sizeof path);
    int rc2 = open_file_and_read(path, &e2);
    unlink(path);
    ck_assert_int_eq(rc2, rc1);
    ck_assert_str_eq(e2.file, path);
    ck_assert_int_eq(e2.line, e1.line);
    ck_assert_int_eq(e2.col, e1.col);
    ck_assert_str_eq(e2.msg, e1.msg);
}

static dv_arg_t make_arg(const char *name, uint64_t bytes, dv_dtype_t dt, dv_arg_dir_t dir, dv_arg_init_t init,
                         uint64_t seed, const char *path)
{
    dv_arg_t a = {.bytes = bytes, .dtype = dt, .dir = dir, .init = init, .seed = seed};
    snprintf(a.name, sizeof a.name, "%s", name);
    snprintf(a.path, sizeof a.path, "%s", path ? path : "");
    return a;
}

/* An instruction of `op` with every field set, where possible, to a legal non-default value. */
static void make_insn(dv_insn_t *in, dv_op_t op, unsigned seed, const dv_kernel_info_t *info)
{
    static const double f64s[] = {-1.25e-7, 0.1, 3.0, 65504.0, -0.0, 1e300, INFINITY, 4.9406564584124654e-324,
                                  -INFINITY, 1.0 / 3.0};
    const dv_op_spec_t *os = dv_op_spec(op);
    const dv_form_spec_t *fs = dv_form_spec(os->form);
    dv_insn_init(in, op);
    for (int i = 0; i < fs->nfields; i++) {
        const dv_field_spec_t *fd = &fs->fields[i];
        dv_val_t *v = &in->f[i];
        int64_t span = fd->max - fd->min + 1;
        switch (fd->kind) {
        case DV_FK_ADDR: {
            dv_space_t sp = DV_ADDR_SPACE(v->u);
            if (sp == DV_SPACE_GM) {
                unsigned a = (seed + (unsigned)i) % info->nargs;
                v->u = DV_GM_ADDR(a, (0x20ull * (unsigned)(i + 1) + seed) % info->args[a].bytes);
            } else {
                v->u = DV_ADDR(sp, 0x1a0 + 0x40ull * (unsigned)i + seed);
            }
            break;
        }
        case DV_FK_INT:
        case DV_FK_PIPE:
        case DV_FK_QUANT:
        case DV_FK_CMP:
        case DV_FK_ROUND: {
            int64_t x = fd->min + (int64_t)((seed * 7u + (unsigned)i * 13u) % (uint64_t)span);
            if (!fd->required && x == fd->def)
                x = x == fd->max ? fd->min : x + 1;
            v->i = x;
            break;
        }
        case DV_FK_BOOL: v->i = fd->required ? 1 : !fd->def; break;
        case DV_FK_DTYPE:
            for (int t = DV_DT_COUNT - 1; t >= 0; t--)
                if (os->dtypes & (1u << t)) {
                    v->i = t;
                    break;
                }
            break;
        case DV_FK_F64: v->d = f64s[(seed + (unsigned)i) % (sizeof f64s / sizeof f64s[0])]; break;
        case DV_FK_U64: v->u = 0xdeadbeefcafef00dull ^ ((uint64_t)seed << 32) ^ (uint64_t)i; break;
        }
    }
    if (os->form == DV_FORM_VCONV) {
        in->f[DV_FLD(VCONV, src_type)].i = DV_DT_F32;
        in->f[DV_FLD(VCONV, dst_type)].i = DV_DT_BF16;
    }
    if (os->form == DV_FORM_LOAD2D)
        in->f[DV_FLD(LOAD2D, dtype)].i = DV_DT_BF16; /* transpose is set: 16-bit only */
    if (os->form == DV_FORM_DMAPADIN) { /* each pad fits 32 bytes */
        in->f[DV_FLD(DMAPADIN, esize)].i = 2;
        in->f[DV_FLD(DMAPADIN, lpad)].i = 1 + seed % 16;
        in->f[DV_FLD(DMAPADIN, rpad)].i = 16 - seed % 16;
    }
    if (os->form == DV_FORM_VREDUCE && op != DV_OP_vcmax && op != DV_OP_vcmin)
        in->f[DV_FLD(VREDUCE, order)].i = 0; /* order is vcmax / vcmin's */
    dv_error_t err;
    ck_assert_msg(dv_insn_check(in, &err) == DV_OK, "%s: %s", os->mnemonic, err.msg);
}

static void assert_insn_eq(const dv_insn_t *a, const dv_insn_t *b)
{
    ck_assert_int_eq(a->op, b->op);
    ck_assert_int_eq(a->nf, b->nf);
    for (int i = 0; i < a->nf; i++)
        ck_assert_msg(memcmp(&a->f[i], &b->f[i], sizeof a->f[i]) == 0, "%s: field %s differs (%llx vs %llx)",
                      dv_op_spec((dv_op_t)a->op)->mnemonic, dv_form_spec(dv_op_spec((dv_op_t)a->op)->form)->fields[i].name,
                      (unsigned long long)a->f[i].u, (unsigned long long)b->f[i].u);
}

static dv_kernel_info_t test_info(dv_arg_t *args)
{
    args[0] = make_arg("x", 65536, DV_DT_F16, DV_ARG_IN, DV_INIT_RANDOM, 1, NULL);
    args[1] = make_arg("y_2", 1ull << 40, DV_DT_S32, DV_ARG_OUT, DV_INIT_ZERO, 0, NULL);
    args[2] = make_arg("w", 4096, DV_DT_BF16, DV_ARG_INOUT, DV_INIT_FILE, 0, "data/w.bin");
    dv_kernel_info_t info = {.kind = DV_KIND_MIX, .blocks = 2, .subs = 3, .nargs = 3, .args = args};
    snprintf(info.name, sizeof info.name, "all_ops");
    return info;
}

/* ---------------------------------------------------------------- round trips */

START_TEST(test_trace_insn_round_trip_every_opcode)
{
    dv_arg_t args[3];
    dv_kernel_info_t info = test_info(args);
    char text[1024], again[1024];
    dv_error_t err;
    for (unsigned seed = 0; seed < 4; seed++)
        for (int op = 0; op < DV_OP_COUNT; op++) {
            dv_insn_t in, out;
            make_insn(&in, (dv_op_t)op, seed, &info);
            in.line = 42;
            int n = dv_trace_format_insn(&in, &info, text, sizeof text);
            ck_assert_int_gt(n, 0);
            ck_assert_uint_eq(strlen(text), (size_t)n);
            ck_assert_msg(dv_trace_parse_insn(text, (size_t)n, &info, "t", 42, &out, &err) == DV_OK, "%s: %s", text,
                          err.msg);
            assert_insn_eq(&in, &out);
            ck_assert_uint_eq(out.line, 42);
            ck_assert_int_eq(dv_trace_format_insn(&out, &info, again, sizeof again), n);
            ck_assert_str_eq(again, text);
        }
}
END_TEST

START_TEST(test_trace_canonical_text_round_trip)
{
    static const char *const lines[] = {
        "vadd dst=ub:0x8000 src0=ub:0x0 src1=ub:0x4000 dtype=f16 repeat=64 dst_blk=1 src0_blk=1 src1_blk=1 dst_rep=8 "
        "src0_rep=8 src1_rep=8",
        "copy_gm_to_ubuf dst=ub:0x0 src=x+0x2000 nburst=1 len=256 src_gap=0 dst_gap=0",
        "copy_ubuf_to_gm dst=x+0xffff src=ub:0x1a0 nburst=4095 len=65535 src_gap=65535 dst_gap=0",
        "set_flag src=MTE2 dst=V id=0",
        "pipe_barrier pipe=ALL",
        "set_vector_mask hi=0xffffffffffffffff lo=0x0",
        "set_mask_count",
        "scalar cycles=1000000",
        "vadds dst=ub:0x0 src=ub:0x100 dtype=f32 scalar=-0.5 repeat=0 dst_blk=0 src_blk=255 dst_rep=8 src_rep=8",
        "vdup dst=ub:0x0 dtype=f16 scalar=0.10000000000000001 repeat=1 dst_blk=1 dst_rep=8",
        "vdup dst=ub:0x0 dtype=f16 scalar=-inf repeat=1 dst_blk=1 dst_rep=8",
        "vdup dst=ub:0x0 dtype=f16 scalar=nan repeat=1 dst_blk=1 dst_rep=8",
        "vcmp dst=ub:0x0 src0=ub:0x0 src1=ub:0x0 dtype=s32 cmp=ge repeat=3 src0_blk=1 src1_blk=1 src0_rep=8 src1_rep=8",
        "mmad c=l0c:0x0 a=l0a:0x0 b=l0b:0x200 dtype=s8 m=16 k=32 n=16 init=0 gemv=0 unit_flag=0",
        "copy_matrix_cc_to_gm dst=x+0x0 src=l0c:0x0 n_size=16 m_size=16 src_stride=16 dst_stride=4294967295 "
        "quant=bf16 relu=1 nz2nd=0 unit_flag=0",
        "vconv dst=ub:0x0 src=ub:0x0 dst_type=f16 src_type=f32 round=a repeat=1 dst_blk=1 src_blk=1 dst_rep=4 src_rep=8",
    };
    dv_arg_t args[1] = {make_arg("x", 65536, DV_DT_F16, DV_ARG_IN, DV_INIT_ZERO, 0, NULL)};
    dv_kernel_info_t info = {.name = "k", .blocks = 1, .subs = 1, .nargs = 1, .args = args};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        dv_insn_t in;
        dv_error_t err;
        char buf[512];
        ck_assert_msg(dv_trace_parse_insn(lines[i], strlen(lines[i]), &info, "t", 1, &in, &err) == DV_OK, "%s: %s",
                      lines[i], err.msg);
        ck_assert_int_gt(dv_trace_format_insn(&in, &info, buf, sizeof buf), 0);
        ck_assert_str_eq(buf, lines[i]);
    }
}
END_TEST

/* Any field order, omitted defaults, decimal offsets, bare ARG and comments read to the canonical text. */
START_TEST(test_trace_noncanonical_text_normalises)
{
    static const char *const pairs[][2] = {
        {"\t vadd repeat=64 dtype=f16 src1=ub:16384 src0=ub:0 dst=ub:0x8000   # tail",
         "vadd dst=ub:0x8000 src0=ub:0x0 src1=ub:0x4000 dtype=f16 repeat=64 dst_blk=1 src0_blk=1 src1_blk=1 dst_rep=8 "
         "src0_rep=8 src1_rep=8"},
        {"copy_gm_to_ubuf len=0x10 src=x dst=ub:0X1A0#c",
         "copy_gm_to_ubuf dst=ub:0x1a0 src=x+0x0 nburst=1 len=16 src_gap=0 dst_gap=0"},
        {"vmuls dst=ub:0 src=ub:0 dtype=f16 scalar=1e3 repeat=1",
         "vmuls dst=ub:0x0 src=ub:0x0 dtype=f16 scalar=1000 repeat=1 dst_blk=1 src_blk=1 dst_rep=8 src_rep=8"},
        {"set_vector_mask lo=255 hi=0", "set_vector_mask hi=0x0 lo=0xff"},
    };
    dv_arg_t args[1] = {make_arg("x", 65536, DV_DT_F16, DV_ARG_IN, DV_INIT_ZERO, 0, NULL)};
    dv_kernel_info_t info = {.name = "k", .blocks = 1, .subs = 1, .nargs = 1, .args = args};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        dv_insn_t in;
        dv_error_t err;
        char buf[512];
        ck_assert_msg(dv_trace_parse_insn(pairs[i][0], strlen(pairs[i][0]), &info, "t", 1, &in, &err) == DV_OK, "%s: %s",
                      pairs[i][0], err.msg);
        ck_assert_int_gt(dv_trace_format_insn(&in, &info, buf, sizeof buf), 0);
        ck_assert_str_eq(buf, pairs[i][1]);
    }
}
END_TEST

START_TEST(test_trace_f64_special_values)
{
    dv_insn_t in;
    dv_error_t err;
    char buf[256];
    const char *l = "vdup dst=ub:0 dtype=f32 scalar=nan repeat=1";
    ck_assert_int_eq(dv_trace_parse_insn(l, strlen(l), NULL, "t", 1, &in, &err), DV_OK);
    ck_assert(isnan(in.f[DV_FLD(VDUP, scalar)].d));
    in.f[DV_FLD(VDUP, scalar)].d = -NAN;
    dv_trace_format_insn(&in, NULL, buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, " scalar=nan "));
    in.f[DV_FLD(VDUP, scalar)].d = -0.0;
    dv_trace_format_insn(&in, NULL, buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, " scalar=-0 "));
    l = "vdup dst=ub:0 dtype=f32 scalar=0x1.8p1 repeat=1";
    ck_assert_int_eq(dv_trace_parse_insn(l, strlen(l), NULL, "t", 1, &in, &err), DV_OK);
    ck_assert(in.f[DV_FLD(VDUP, scalar)].d == 3.0);
    l = "vdup dst=ub:0 dtype=f32 scalar=1e400 repeat=1";
    ck_assert_int_eq(dv_trace_parse_insn(l, strlen(l), NULL, "t", 1, &in, &err), DV_ERR_RANGE);
    ck_assert_int_eq(err.col, 32);
}
END_TEST

START_TEST(test_trace_format_small_buffer)
{
    dv_insn_t in;
    char buf[16];
    dv_insn_init(&in, DV_OP_set_flag);
    ck_assert_int_eq(dv_trace_format_insn(&in, NULL, buf, sizeof buf), -1);
    ck_assert_int_eq(dv_trace_format_insn(&in, NULL, buf, 0), -1);
    dv_insn_init(&in, DV_OP_set_mask_norm);
    ck_assert_int_eq(dv_trace_format_insn(&in, NULL, buf, sizeof buf), 13);
    ck_assert_str_eq(buf, "set_mask_norm");
    in.op = DV_OP_INVALID;
    ck_assert_int_eq(dv_trace_format_insn(&in, NULL, buf, sizeof buf), -1);
}
END_TEST

/* The order in which the file test writes its streams: not block order, to exercise the index. */
static const uint32_t write_order[][2] = {{1, 2}, {0, 0}, {1, 0}, {0, 2}, {0, 1}, {1, 1}};
#define NSTREAMS (sizeof write_order / sizeof write_order[0])

static unsigned stream_seed(uint32_t b, uint32_t s) { return b * 3 + s; }

static void write_trace(FILE *f, const dv_kernel_info_t *info, const dv_kernel_info_t *args_of, bool with_insns)
{
    ck_assert_int_eq(dv_trace_write_header(f, info), DV_OK);
    for (size_t w = 0; w < NSTREAMS; w++) {
        uint32_t b = write_order[w][0], s = write_order[w][1];
        ck_assert_int_eq(dv_trace_write_block(f, info, b, s), DV_OK);
        for (int op = 0; with_insns && op < DV_OP_COUNT; op++) {
            dv_insn_t in;
            make_insn(&in, (dv_op_t)op, stream_seed(b, s), args_of);
            ck_assert_int_eq(dv_trace_write_insn(f, info, &in), DV_OK);
        }
    }
    ck_assert_int_eq(dv_trace_write_end(f), DV_OK);
}

static void check_kernel_matches(dv_kernel_t *k, const dv_kernel_info_t *info)
{
    ck_assert_str_eq(k->info.name, info->name);
    ck_assert_int_eq(k->info.kind, info->kind);
    ck_assert_uint_eq(k->info.blocks, info->blocks);
    ck_assert_uint_eq(k->info.subs, 3);
    ck_assert_uint_eq(k->info.nargs, info->nargs);
    for (uint32_t a = 0; a < info->nargs; a++) {
        const dv_arg_t *x = &k->info.args[a], *y = &info->args[a];
        ck_assert_str_eq(x->name, y->name);
        ck_assert_uint_eq(x->bytes, y->bytes);
        ck_assert_int_eq(x->dtype, y->dtype);
        ck_assert_int_eq(x->dir, y->dir);
        ck_assert_int_eq(x->init, y->init);
        ck_assert_uint_eq(x->seed, y->seed);
        ck_assert_str_eq(x->path, y->path);
    }
    for (uint32_t b = 0; b < info->blocks; b++)
        for (uint32_t s = 0; s < 3; s++) {
            dv_stream_t *st;
            dv_insn_t got, want;
            dv_error_t err;
            uint32_t last_line = 0;
            ck_assert_int_eq(k->open(k, b, s, &st, &err), DV_OK);
            for (int op = 0; op < DV_OP_COUNT; op++) {
                int rc = st->next(st, &got, &err);
                ck_assert_msg(rc == 1, "block %u sub %u op %d: rc %d %s", b, s, op, rc, err.msg);
                make_insn(&want, (dv_op_t)op, stream_seed(b, s), info);
                assert_insn_eq(&got, &want);
                ck_assert_uint_gt(got.line, last_line);
                last_line = got.line;
            }
            ck_assert_int_eq(st->next(st, &got, &err), 0);
            ck_assert_int_eq(st->next(st, &got, &err), 0);
            st->close(st);
        }
}

/* A file holding every opcode in every stream reads back to the same header and streams, and
 * re-writing what was read gives the same bytes. */
START_TEST(test_trace_file_round_trip_byte_identical)
{
    dv_arg_t args[3];
    dv_kernel_info_t info = test_info(args);
    char path[64];
    snprintf(path, sizeof path, "/tmp/dvtrace_rt_XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "wb");
    write_trace(f, &info, &info, true);
    fclose(f);
    char *original = read_all(path);

    dv_kernel_t *k;
    dv_error_t err;
    ck_assert_msg(dv_trace_open(path, &k, &err) == DV_OK, "%s:%d:%d: %s", err.file, err.line, err.col, err.msg);
    check_kernel_matches(k, &info);

    char *again = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&again, &len);
    ck_assert_int_eq(dv_trace_write_header(m, &k->info), DV_OK);
    for (size_t w = 0; w < NSTREAMS; w++) {
        dv_stream_t *st;
        dv_insn_t in;
        ck_assert_int_eq(dv_trace_write_block(m, &k->info, write_order[w][0], write_order[w][1]), DV_OK);
        ck_assert_int_eq(k->open(k, write_order[w][0], write_order[w][1], &st, &err), DV_OK);
        while (st->next(st, &in, &err) > 0)
            ck_assert_int_eq(dv_trace_write_insn(m, &k->info, &in), DV_OK);
        st->close(st);
    }
    ck_assert_int_eq(dv_trace_write_end(m), DV_OK);
    fclose(m);
    ck_assert_uint_eq(len, strlen(original));
    ck_assert_msg(strcmp(again, original) == 0, "rewrite differs");
    dv_trace_close(k);

    ck_assert_int_eq(dv_trace_open_string(original, "mem", &k, &err), DV_OK);
    check_kernel_matches(k, &info);
    dv_trace_close(k);
    free(again);
    free(original);
    unlink(path);
}
END_TEST

START_TEST(test_trace_header_fields_and_defaults)
{
    const char *text = "dvtrace 1   # version\n"
                       "\n"
                       "# a comment line\n"
                       "kernel vadd_db.v-2 blocks=0x2 kind=cube\n"
                       "arg a bytes=16\n"
                       "arg _b2 init=random:0xffffffffffffffff dir=out dtype=f32 bytes=1099511627776\n"
                       "arg c bytes=32 init=file:in/c.bin dir=in\n"
                       "block 1\n"
                       "block 0\n"
                       "end\n"
                       "# trailing comment\n\n";
    dv_kernel_t *k;
    dv_error_t err;
    ck_assert_msg(dv_trace_open_string(text, "h", &k, &err) == DV_OK, "%d:%d %s", err.line, err.col, err.msg);
    ck_assert_str_eq(k->info.name, "vadd_db.v-2");
    ck_assert_int_eq(k->info.kind, DV_KIND_CUBE);
    ck_assert_uint_eq(k->info.blocks, 2);
    ck_assert_uint_eq(k->info.subs, 1);
    ck_assert_uint_eq(k->info.nargs, 3);
    ck_assert_str_eq(k->info.args[0].name, "a");
    ck_assert_uint_eq(k->info.args[0].bytes, 16);
    ck_assert_int_eq(k->info.args[0].dtype, DV_DT_U8);
    ck_assert_int_eq(k->info.args[0].dir, DV_ARG_INOUT);
    ck_assert_int_eq(k->info.args[0].init, DV_INIT_ZERO);
    ck_assert_int_eq(k->info.args[1].init, DV_INIT_RANDOM);
    ck_assert_uint_eq(k->info.args[1].seed, UINT64_MAX);
    ck_assert_int_eq(k->info.args[1].dir, DV_ARG_OUT);
    ck_assert_int_eq(k->info.args[1].dtype, DV_DT_F32);
    ck_assert_uint_eq(k->info.args[1].bytes, 1ull << 40);
    ck_assert_int_eq(k->info.args[2].init, DV_INIT_FILE);
    ck_assert_str_eq(k->info.args[2].path, "in/c.bin");
    ck_assert_int_eq(k->info.args[2].dir, DV_ARG_IN);
    for (uint32_t b = 0; b < 2; b++) {
        dv_stream_t *st;
        dv_insn_t in;
        ck_assert_int_eq(k->open(k, b, 0, &st, &err), DV_OK);
        ck_assert_str_eq(st->source, "h");
        ck_assert_int_eq(st->next(st, &in, &err), 0); /* empty blocks are allowed */
        st->close(st);
    }
    dv_stream_t *st;
    ck_assert_int_eq(k->open(k, 2, 0, &st, &err), DV_ERR_RANGE);
    ck_assert_int_eq(k->open(k, 0, 1, &st, &err), DV_ERR_RANGE);
    dv_trace_close(k);
}
END_TEST

START_TEST(test_trace_insn_line_numbers)
{
    const char *text = "dvtrace 1\nkernel k kind=vector blocks=1\nblock 0\n\n# c\nscalar cycles=1\r\n  \n"
                       "scalar cycles=2 # c\nend\n";
    dv_kernel_t *k;
    dv_stream_t *st;
    dv_insn_t in;
    dv_error_t err;
    ck_assert_int_eq(dv_trace_open_string(text, "n", &k, &err), DV_OK);
    ck_assert_int_eq(k->open(k, 0, 0, &st, &err), DV_OK);
    ck_assert_int_eq(st->next(st, &in, &err), 1);
    ck_assert_uint_eq(in.line, 6);
    ck_assert_int_eq(in.f[0].i, 1);
    ck_assert_int_eq(st->next(st, &in, &err), 1);
    ck_assert_uint_eq(in.line, 8);
    ck_assert_int_eq(in.f[0].i, 2);
    ck_assert_int_eq(st->next(st, &in, &err), 0);
    st->close(st);
    dv_trace_close(k);
}
END_TEST

/* Lines that differ only in their address offsets (one shape) decode from the first one's
 * instruction: every instruction equals what the parser makes of its line, whatever the offset's
 * spelling (hex, decimal, upper case, a comment after it). */
START_TEST(test_trace_shape_decoded_lines_match_parser)
{
    static const char *const lines[] = {
        "copy_gm_to_ubuf dst=ub:0x0 src=x+0x0 nburst=1 len=4",
        "copy_gm_to_ubuf dst=ub:0x100 src=x+0x200 nburst=1 len=4",
        "copy_gm_to_ubuf dst=ub:256 src=x+4096 nburst=1 len=4",
        "copy_gm_to_ubuf dst=ub:0X400 src=x+0xABC0 nburst=1 len=4 # a comment",
        "copy_gm_to_ubuf dst=ub:0x600 src=x+0x20 nburst=1 len=4",
        "copy_ubuf_to_gm dst=y+0x40 src=ub:0x600 nburst=1 len=4",
        "copy_ubuf_to_gm dst=y+0x80 src=ub:0x620 nburst=1 len=4",
        "copy_ubuf_to_gm dst=y+0 src=ub:0 nburst=1 len=4",
    };
    enum { N = sizeof lines / sizeof lines[0] };
    char text[2048] = "dvtrace 1\nkernel k kind=vector blocks=1\narg x bytes=65536 dtype=f16 dir=in\n"
                      "arg y bytes=65536 dtype=f16 dir=out\nblock 0\n";
    for (int i = 0; i < N; i++) {
        strcat(text, lines[i]);
        strcat(text, "\n");
    }
    strcat(text, "end\n");
    dv_kernel_t *k;
    dv_stream_t *st;
    dv_insn_t got, want;
    dv_error_t err;
    ck_assert_int_eq(dv_trace_open_string(text, "s", &k, &err), DV_OK);
    ck_assert_int_eq(k->open(k, 0, 0, &st, &err), DV_OK);
    for (int i = 0; i < N; i++) {
        ck_assert_int_eq(st->next(st, &got, &err), 1);
        ck_assert_msg(dv_trace_parse_insn(lines[i], strlen(lines[i]), &k->info, "s", 6 + i, &want, &err) == DV_OK,
                      "%s", err.msg);
        ck_assert_uint_eq(got.line, 6 + i);
        assert_insn_eq(&got, &want);
    }
    ck_assert_int_eq(st->next(st, &got, &err), 0);
    st->close(st);
    dv_trace_close(k);
}
END_TEST

/* A shape remembers the last two offset runs at each place (a loop alternates its buffers): every
 * line equals what the parser makes of it when an offset comes back, comes back in another spelling
 * (upper case, decimal, leading zeros), is a longer run that starts like a remembered one, or fills
 * eight bytes or more; and an offset out of range that comes back is still the parser's error. */
START_TEST(test_trace_shape_offsets_remembered_match_parser)
{
    static const char *const offs[] = {
        "0x40",     "0x4000",   "0x40",     "0x4000",   "0x400",     "0x4000",   "0X4000",   "16384",
        "0x4a",     "0x4A",     "0x04A",    "0x4a",     "0x123456",  "0x123456", "0x1234567", "0x1234567",
        "0x12345678", "0x12345678", "0x123456789", "0", "0x0",       "00",       "0",        "0x4000",
    };
    enum { N = sizeof offs / sizeof offs[0] };
    char text[8192] = "dvtrace 1\nkernel k kind=vector blocks=1\narg x bytes=8589934592 dtype=f16 dir=in\nblock 0\n";
    char lines[2 * N][128];
    for (int i = 0; i < 2 * N; i++) { /* the ub offset from the list, the x offset from it backwards */
        snprintf(lines[i], sizeof lines[i], "copy_gm_to_ubuf dst=ub:%s src=x+%s nburst=1 len=4%s", offs[i % N],
                 offs[N - 1 - i % N], i % 3 ? "" : "\r");
        strcat(text, lines[i]);
        strcat(text, "\n");
    }
    strcat(text, "end\n");
    char path[64];
    write_temp(text, path, sizeof path);
    for (int file = 0; file < 2; file++) {
        dv_kernel_t *k;
        dv_stream_t *st;
        dv_insn_t got, want;
        dv_error_t err;
        ck_assert_int_eq(file ? dv_trace_open(path, &k, &err) : dv_trace_open_string(text, "s", &k, &err), DV_OK);
        ck_assert_int_eq(k->open(k, 0, 0, &st, &err), DV_OK);
        for (int i = 0; i < 2 * N; i++) {
            size_t n = strlen(lines[i]);
            ck_assert_int_eq(st->next(st, &got, &err), 1);
            ck_assert_msg(dv_trace_parse_insn(lines[i], n - (i % 3 == 0), &k->info, "s", 5 + i, &want, &err) == DV_OK,
                          "%s", err.msg);
            ck_assert_uint_eq(got.line, 5 + i);
            assert_insn_eq(&got, &want);
        }
        ck_assert_int_eq(st->next(st, &got, &err), 0);
        st->close(st);
        dv_trace_close(k);
    }
    unlink(path);
    /* an offset seen in range, then out of range for a smaller argument (the text comes back) */
    const char *bad = "dvtrace 1\nkernel k kind=vector blocks=1\narg x bytes=65536 dtype=f16 dir=in\nblock 0\n"
                      "copy_gm_to_ubuf dst=ub:0x0 src=x+0x40 nburst=1 len=4\n"
                      "copy_gm_to_ubuf dst=ub:0x20 src=x+0xFFFF nburst=1 len=4\n"
                      "copy_gm_to_ubuf dst=ub:0x0 src=x+0x40 nburst=1 len=4\n"
                      "copy_gm_to_ubuf dst=ub:0x20 src=x+0x10000 nburst=1 len=4\nend\n";
    dv_error_t e;
    ck_assert_int_lt(open_and_read(bad, "t.trace", &e), 0);
    ck_assert_int_eq(e.line, 8);
    ck_assert_int_eq(e.col, 35);
    ck_assert_msg(strstr(e.msg, "must be less than the size of argument 'x'"), "%s", e.msg);
}
END_TEST

/* A line of a known shape whose offset the parser rejects is reported by the parser: the same
 * message at the same column as when it is the first of its shape. */
START_TEST(test_trace_shape_errors_are_the_parsers)
{
    static const struct {
        const char *line;
        int col;
        const char *want;
    } bad[] = {
        {"copy_gm_to_ubuf dst=ub:0x0 src=x+0x10000 nburst=1 len=4", 34, "must be less than the size of argument 'x'"},
        {"copy_gm_to_ubuf dst=ub:0x10000000000 src=x+0x0 nburst=1 len=4", 24, "does not fit in 40 bits"},
        {"copy_gm_to_ubuf dst=ub:0xZZ src=x+0x0 nburst=1 len=4", 24, "expected an offset"},
        {"copy_gm_to_ubuf dst=ub:0x0 src=x+0xFFFFFFFFFFFFFFFFFF nburst=1 len=4", 34, "must be less than the size"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "dvtrace 1\nkernel k kind=vector blocks=1\narg x bytes=65536 dtype=f16 dir=in\nblock 0\n"
                 "copy_gm_to_ubuf dst=ub:0x20 src=x+0x40 nburst=1 len=4\n%s\nend\n",
                 bad[i].line);
        dv_error_t e;
        ck_assert_int_lt(open_and_read(text, "t.trace", &e), 0);
        /* the same line alone, parsed without a shape seen before */
        char alone[1024];
        dv_error_t e0;
        snprintf(alone, sizeof alone,
                 "dvtrace 1\nkernel k kind=vector blocks=1\narg x bytes=65536 dtype=f16 dir=in\nblock 0\n"
                 "scalar cycles=1\n%s\nend\n",
                 bad[i].line);
        ck_assert_int_lt(open_and_read(alone, "t.trace", &e0), 0);
        ck_assert_msg(e.line == 6 && e.col == bad[i].col && strstr(e.msg, bad[i].want),
                      "%zu: expected 6:%d '%s', got %d:%d '%s'", i, bad[i].col, bad[i].want, e.line, e.col, e.msg);
        ck_assert_int_eq(e.line, e0.line);
        ck_assert_int_eq(e.col, e0.col);
        ck_assert_str_eq(e.msg, e0.msg);
    }
}
END_TEST

/* A kernel loop as the reader meets it: lines that repeat, lines that alternate, DMA lines whose
 * offsets change (hex, upper-case hex, decimal), a CRLF line, blanks before a mnemonic, comments, and
 * more text than one read buffer.  bad: 0, or which line of iteration bad_at is spoiled (1: an
 * offset out of range, 2: an unknown mnemonic, 3: a NUL byte). */
static char *loop_text(int iters, int bad, int bad_at, size_t *len)
{
    const size_t cap = (size_t)iters * 512 + 256;
    char *t = malloc(cap);
    ck_assert_ptr_nonnull(t);
    size_t n = (size_t)snprintf(t, cap, "dvtrace 1\nkernel k kind=vector blocks=1\narg x bytes=65536 dtype=f16 dir=in\n"
                                        "arg y bytes=65536 dtype=f16 dir=out\nblock 0\n");
#define PUT(...) (n += (size_t)snprintf(t + n, cap - n, __VA_ARGS__))
    for (int i = 0; i < iters; i++) {
        const int id = i & 1;
        const unsigned off = (unsigned)(i * 96) % 65536, x = i == bad_at && bad == 1 ? 65536 : off;
        PUT("scalar cycles=4\nwait_flag src=V dst=MTE2 id=%d\n", id);
        PUT("copy_gm_to_ubuf%s dst=ub:0x%x src=x+0x%x nburst=1 len=4\n", i == bad_at && bad == 2 ? "x" : "",
            id * 0x4000, x);
        PUT("copy_gm_to_ubuf dst=ub:%u src=x+%u nburst=1 len=4\r\n", 0x8000 + id * 0x4000, off);
        if (i == bad_at && bad == 3)
            PUT("set_flag src=MTE2 dst=V id=%d", id), t[n++] = '\0', PUT("\n");
        PUT("vadd dst=ub:0x%x src0=ub:0x0 src1=ub:0x8000 dtype=f16 repeat=64\n", 0x10000 + id * 0x4000);
        PUT("   set_flag src=V dst=MTE3 id=%d\n", id);
        PUT("copy_ubuf_to_gm dst=y+0x%X src=ub:0x10000 nburst=1 len=4%s\n", off, i % 7 ? "" : " # out");
        if (i % 5 == 0)
            PUT("# iteration %d\n", i);
    }
    PUT("end\n");
#undef PUT
    *len = n;
    return t;
}

/* Every instruction read from loop_text, by the string and the file reader, is what the parser makes
 * of its line on its own, at its line number. */
START_TEST(test_trace_loop_lines_match_parser)
{
    size_t len;
    char *text = loop_text(600, 0, -1, &len);
    char path[64];
    write_temp(text, path, sizeof path);
    for (int file = 0; file < 2; file++) {
        dv_kernel_t *k;
        dv_stream_t *st;
        dv_error_t err;
        ck_assert_int_eq(file ? dv_trace_open(path, &k, &err) : dv_trace_open_string(text, "s", &k, &err), DV_OK);
        ck_assert_int_eq(k->open(k, 0, 0, &st, &err), DV_OK);
        int count = 0;
        const char *p = text;
        for (int lineno = 1; *p; lineno++) {
            const char *line = p, *nl = strchr(p, '\n');
            size_t n = (size_t)(nl - line), i = 0;
            p = nl + 1;
            if (n && line[n - 1] == '\r')
                n--;
            while (i < n && line[i] == ' ')
                i++;
            if (lineno <= 5 || i == n || line[i] == '#' || strncmp(line + i, "end", 3) == 0)
                continue;
            dv_insn_t got, want;
            ck_assert_int_eq(st->next(st, &got, &err), 1);
            ck_assert_msg(dv_trace_parse_insn(line, n, &k->info, "s", lineno, &want, &err) == DV_OK, "%s", err.msg);
            ck_assert_uint_eq(got.line, (unsigned)lineno);
            assert_insn_eq(&got, &want);
            count++;
        }
        ck_assert_int_eq(st->next(st, &(dv_insn_t){0}, &err), 0);
        ck_assert_int_eq(count, 600 * 7);
        st->close(st);
        dv_trace_close(k);
    }
    unlink(path);
    free(text);
}
END_TEST

/* A spoiled line deep in the loop is reported as on its own: an offset the parser rejects in a DMA
 * line of a shape followed before, an unknown mnemonic that starts like a known one, a NUL byte
 * in a file (past the first read buffer). */
START_TEST(test_trace_loop_errors_where_they_are)
{
    static const struct {
        int bad, line, col;
        const char *want;
    } cases[] = {
        {1, 0, 34, "must be less than the size of argument 'x'"},
        {2, 0, 1, "unknown mnemonic 'copy_gm_to_ubufx'"},
        {3, 1, 29, "a NUL byte"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const int at = 450;
        size_t len;
        char *text = loop_text(600, cases[c].bad, at, &len);
        /* the spoiled line: the third of iteration `at` (bad 1, 2), the fifth (bad 3) */
        int line = 5;
        for (int i = 0; i < at; i++)
            line += 7 + (i % 5 == 0);
        line += cases[c].bad == 3 ? 5 : 3;
        char path[64];
        write_temp_bytes(text, len, path, sizeof path);
        dv_error_t e1, e2;
        ck_assert_int_lt(open_file_and_read(path, &e1), 0);
        unlink(path);
        ck_assert_msg(e1.line == line && e1.col == cases[c].col && strstr(e1.msg, cases[c].want),
                      "%zu: expected %d:%d '%s', got %d:%d '%s'", c, line, cases[c].col, cases[c].want, e1.line, e1.col,
                      e1.msg);
        if (cases[c].bad != 3) { /* the string reader stops at a NUL */
            ck_assert_int_lt(open_and_read(text, "t.trace", &e2), 0);
            ck_assert_int_eq(e2.line, e1.line);
            ck_assert_int_eq(e2.col, e1.col);
            ck_assert_str_eq(e2.msg, e1.msg);
        }
        free(text);
    }
}
END_TEST

/* A loop the reader replays (kernel/trace_read.c, replay_entry_t), broken in every way a replay
 * must stop at: a comment, a blank line, a CR LF, a line that differs, offsets spelled in decimal,
 * an extra line (a longer iteration), a stretch with another body, a block that ends inside an
 * iteration, and the end of the text inside one.  bad_at >= 0: iteration bad_at's DMA offset is out
 * of range. */
static char *replay_text(int iters, int bad_at, size_t *len)
{
    const size_t cap = (size_t)iters * 2 * 640 + 512;
    char *t = malloc(cap);
    ck_assert_ptr_nonnull(t);
    size_t n = (size_t)snprintf(t, cap, "dvtrace 1\nkernel k kind=vector blocks=2\narg x bytes=1048576 dtype=f16 dir=in\n"
                                        "arg y bytes=1048576 dtype=f16 dir=out\n");
#define PUT(...) (n += (size_t)snprintf(t + n, cap - n, __VA_ARGS__))
    for (int b = 0; b < 2; b++) {
        PUT("block %d\n", b);
        for (int i = 0; i < iters; i++) {
            const int id = i & 1;
            const unsigned off = (unsigned)(i * 64), x = i == bad_at && b == 1 ? 1048576 : off;
            if (i >= 300 && i < 340) { /* another body, three lines long */
                PUT("scalar cycles=7\ncopy_gm_to_ubuf dst=ub:0x%x src=y+0x%x nburst=1 len=4\npipe_barrier pipe=ALL\n",
                    id * 0x100, off);
                continue;
            }
            PUT("scalar cycles=%d\n", i % 47 == 11 ? 5 : 4);
            PUT("wait_flag src=V dst=MTE2 id=%d\n", id);
            if (i % 53 == 13)
                PUT("copy_gm_to_ubuf dst=ub:%u src=x+%u nburst=1 len=4\n", id * 0x4000, x);
            else
                PUT("copy_gm_to_ubuf dst=ub:0x%x src=x+0x%x nburst=1 len=4\n", id * 0x4000, x);
            if (i % 37 == 5)
                PUT("# iteration %d\n", i);
            PUT("set_flag src=MTE2 dst=V id=%d%s\n", id, i % 43 == 9 ? "\r" : "");
            if (i % 41 == 7)
                PUT("\n");
            PUT("wait_flag src=MTE2 dst=V id=%d\n", id);
            PUT("vadd dst=ub:0x%x src0=ub:0x0 src1=ub:0x8000 dtype=f16 repeat=64\n", 0x10000 + id * 0x4000);
            if (i % 59 == 17)
                PUT("scalar cycles=9\n");
            PUT("set_flag src=V dst=MTE3 id=%d\n", id);
            if (b == 1 && i == iters - 1)
                break; /* the text ends inside an iteration */
            PUT("copy_ubuf_to_gm dst=y+0x%x src=ub:0x%x nburst=1 len=4\n", off, 0x10000 + id * 0x4000);
        }
        PUT("wait_flag src=V dst=MTE2 id=0\n"); /* the block ends inside an iteration */
    }
    PUT("end\n");
#undef PUT
    *len = n;
    return t;
}

/* Every instruction of every block of text read by the string and the file reader is what the
 * parser makes of its line alone, at its line number; or the first error is the parser's. */
static void check_blocks_match_parser(const char *text, size_t len)
{
    char path[64];
    write_temp_bytes(text, len, path, sizeof path);
    for (int file = 0; file < 2; file++) {
        dv_kernel_t *k;
        dv_error_t err;
        ck_assert_int_eq(file ? dv_trace_open(path, &k, &err) : dv_trace_open_string(text, "s", &k, &err), DV_OK);
        dv_stream_t *st = NULL;
        const char *p = text;
        bool failed = false;
        for (int lineno = 1; *p && !failed; lineno++) {
            const char *line = p, *nl = strchr(p, '\n');
            size_t n = (size_t)(nl - line);
            p = nl + 1;
            if (n && line[n - 1] == '\r')
                n--;
            if (n == 0 || line[0] == '#' || strncmp(line, "arg ", 4) == 0 || strncmp(line, "kernel ", 7) == 0 ||
                strncmp(line, "dvtrace ", 8) == 0)
                continue;
            if (strncmp(line, "block ", 6) == 0 || strncmp(line, "end", 3) == 0) {
                if (st) {
                    ck_assert_int_eq(st->next(st, &(dv_insn_t){0}, &err), 0);
                    st->close(st);
                    st = NULL;
                }
                if (line[0] == 'b')
                    ck_assert_int_eq(k->open(k, (uint32_t)atoi(line + 6), 0, &st, &err), DV_OK);
                continue;
            }
            dv_insn_t got, want;
            dv_error_t perr;
            const int rc = st->next(st, &got, &err);
            if (dv_trace_parse_insn(line, n, &k->info, "s", lineno, &want, &perr) != DV_OK) {
                ck_assert_int_lt(rc, 0);
                ck_assert_int_eq(err.line, perr.line);
                ck_assert_int_eq(err.col, perr.col);
                ck_assert_str_eq(err.msg, perr.msg);
                failed = true;
                continue;
            }
            ck_assert_msg(rc == 1, "line %d: %d %s", lineno, rc, err.msg);
            ck_assert_uint_eq(got.line, (unsigned)lineno);
            assert_insn_eq(&got, &want);
        }
        if (st)
            st->close(st);
        dv_trace_close(k);
    }
    unlink(path);
}

START_TEST(test_trace_replayed_loop_matches_parser)
{
    size_t len;
    char *text = replay_text(700, -1, &len);
    check_blocks_match_parser(text, len);
    free(text);
    text = replay_text(700, 555, &len); /* an offset out of range in a replayed DMA line */
    check_blocks_match_parser(text, len);
    free(text);
}
END_TEST

/* A loop the reader matches an iteration at a time with its template (kernel/trace_read.c,
 * template_t): a double-buffered body of eleven lines, two iterations a period, whose GM offsets
 * walk by a stride (up, and down for z), past 2^32 and across digit counts, while its UB offsets
 * stay (runs the template makes text).  disrupt: the iterations in which the text differs from the
 * template somewhere (a comment line, a blank line, CR LF, blanks before a mnemonic, a changed
 * field, an offset in upper case, with a leading zero or in decimal, a kept UB offset that changes,
 * a stride that jumps, a comment after a line; disrupt 2: also, in every iteration, a line too long
 * to be kept in the reader's line cache); bad >= 0: the kind of error put in iteration bad_at
 * of block 1 (0: an offset past its argument, 1: an offset of too many digits, 2: a field out of
 * range, 3: a UB offset past 40 bits). */
static char *template_text(int iters, int disrupt, int bad, int bad_at, size_t *len)
{
    char *t = NULL;
    FILE *m = open_memstream(&t, len);
    ck_assert_ptr_nonnull(m);
    fprintf(m, "dvtrace 1\nkernel k kind=vector blocks=2\narg x bytes=17179869184 dtype=f16 dir=in\n"
               "arg y bytes=1048576 dtype=f16 dir=in\narg z bytes=17179869184 dtype=f16 dir=out\n");
    for (int b = 0; b < 2; b++) {
        fprintf(m, "block %d\n", b);
        uint64_t x = b ? 0xFFFF0000ull - 0x200ull * 700 : 0xF000, z = 0x100000000ull + 0x40ull * 2000;
        for (int i = 0; i < iters; i++) {
            const int id = i & 1;
            const bool d = disrupt && b == 1;
            const bool here = bad >= 0 && b == 1 && i == bad_at;
            x += d && i % 53 == 23 ? 0x10000 : 0x200;
            z -= 0x40;
            fprintf(m, "scalar cycles=4\n");
            fprintf(m, "wait_flag src=V dst=MTE2 id=%d\n", id);
            if (here && bad == 0)
                fprintf(m, "copy_gm_to_ubuf dst=ub:0x%x src=x+0x%llx nburst=1 len=4\n", id * 0x4000, 17179869184ull);
            else if (here && bad == 1)
                fprintf(m, "copy_gm_to_ubuf dst=ub:0x%x src=x+0x%llx0000000000 nburst=1 len=4\n", id * 0x4000,
                        (unsigned long long)x);
            else if (d && i % 71 == 15)
                fprintf(m, "copy_gm_to_ubuf dst=ub:0x%x src=x+0x%llX nburst=1 len=4\n", id * 0x4000, (unsigned long long)x);
            else if (d && i % 67 == 17)
                fprintf(m, "copy_gm_to_ubuf dst=ub:0x%x src=x+0x0%llx nburst=1 len=4\n", id * 0x4000, (unsigned long long)x);
            else if (d && i % 61 == 19)
                fprintf(m, "copy_gm_to_ubuf dst=ub:0x%x src=x+%llu nburst=1 len=4\n", id * 0x4000, (unsigned long long)x);
            else if (d && i % 59 == 21)
                fprintf(m, "copy_gm_to_ubuf dst=ub:0x%x src=x+0x%llx nburst=1 len=4\n", 0x100 + id * 0x4000,
                        (unsigned long long)x);
            else
                fprintf(m, "copy_gm_to_ubuf dst=ub:0x%x src=x+0x%llx nburst=1 len=4\n", id * 0x4000, (unsigned long long)x);
            if (d && i % 97 == 5)
                fprintf(m, "# iteration %d\n", i);
            fprintf(m, "copy_gm_to_ubuf_align dst=ub:0x%x src=y+0x%x nburst=1 len=64 src_gap=0 dst_gap=0\n",
                    0x8000 + id * 0x4000, (i * 0x40) % 0x80000);
            fprintf(m, "%sset_flag src=MTE2 dst=V id=%d%s\n", d && i % 79 == 11 ? "  " : "", id,
                    d && i % 83 == 9 ? "\r" : "");
            if (d && i % 89 == 7)
                fprintf(m, "\n");
            fprintf(m, "wait_flag src=MTE2 dst=V id=%d\n", id);
            fprintf(m, "vadd dst=ub:0x%x src0=ub:0x%x src1=ub:0x%llx dtype=f16 repeat=%d\n", 0x10000 + id * 0x4000,
                    id * 0x4000, here && bad == 3 ? 0x10000000000ull : 0x8000ull + (unsigned)id * 0x4000,
                    here && bad == 2 ? 256 : d && i % 73 == 13 ? 63 : 64);
            fprintf(m, "set_flag src=V dst=MTE3 id=%d\n", id);
            fprintf(m, "wait_flag src=V dst=MTE3 id=%d%s\n", id,
                    disrupt == 2 ? " # a comment that makes this line longer than the lines the reader keeps" : "");
            if (b == 0 && i == iters - 1)
                break; /* the block ends inside an iteration */
            fprintf(m, "copy_ubuf_to_gm dst=z+0x%llx src=ub:0x%x nburst=1 len=4%s\n", (unsigned long long)z,
                    0x10000 + id * 0x4000, d && i % 47 == 25 ? " # out" : "");
            fprintf(m, "set_flag src=MTE3 dst=V id=%d\n", id);
        }
    }
    fprintf(m, "end\n");
    fclose(m);
    return t;
}

START_TEST(test_trace_template_matches_parser)
{
    size_t len;
    for (int disrupt = 0; disrupt < 3; disrupt++) {
        char *text = template_text(500, disrupt, -1, 0, &len);
        check_blocks_match_parser(text, len);
        free(text);
    }
    /* an error in the middle of a run of iterations matched with the template: the parser's, where it is */
    for (int bad = 0; bad < 4; bad++)
        for (int at = 100; at < 102; at++) {
            char *text = template_text(120, bad & 1, bad, at, &len);
            check_blocks_match_parser(text, len);
            free(text);
        }
}
END_TEST

/* Runs that walk together (kernel/trace_read.c, tp_group_t): a loop that reads x and y and writes
 * z (block 0) or w (block 1) at the same offsets, so the template matches each iteration as one
 * expected text and makes the offsets' text once per group; the offsets walk across digit counts
 * (0xf000 .. 0x10000 ..), and in block 1 the group's least limit is w's, which a walk reaches
 * (w_bytes): the instructions and the error are the parser's. */
static char *walk_text(int iters, unsigned w_bytes, size_t *len)
{
    char *t = NULL;
    FILE *m = open_memstream(&t, len);
    ck_assert_ptr_nonnull(m);
    fprintf(m, "dvtrace 1\nkernel k kind=vector blocks=2\narg x bytes=1048576 dtype=f16 dir=in\n"
               "arg y bytes=1048576 dtype=f16 dir=in\narg z bytes=1048576 dtype=f16 dir=out\n"
               "arg w bytes=%u dtype=f16 dir=out\n", w_bytes);
    for (int b = 0; b < 2; b++) {
        fprintf(m, "block %d\n", b);
        for (int i = 0; i < iters; i++) {
            const int id = i & 1;
            const unsigned off = 0xE000u + (unsigned)i * 0x200u;
            fprintf(m, "scalar cycles=4\n");
            fprintf(m, "copy_gm_to_ubuf dst=ub:0x%x src=x+0x%x nburst=1 len=4\n", id * 0x4000, off);
            fprintf(m, "copy_gm_to_ubuf dst=ub:0x%x src=y+0x%x nburst=1 len=4\n", 0x8000 + id * 0x4000, off);
            fprintf(m, "set_flag src=MTE2 dst=V id=%d\nwait_flag src=MTE2 dst=V id=%d\n", id, id);
            fprintf(m, "vadd dst=ub:0x%x src0=ub:0x%x src1=ub:0x%x dtype=f16 repeat=64\n", 0x10000 + id * 0x4000,
                    id * 0x4000, 0x8000 + id * 0x4000);
            fprintf(m, "copy_ubuf_to_gm dst=%c+0x%x src=ub:0x%x nburst=1 len=4\n", b ? 'w' : 'z', off,
                    0x10000 + id * 0x4000);
        }
    }
    fprintf(m, "end\n");
    fclose(m);
    return t;
}

START_TEST(test_trace_template_walks_together_match_parser)
{
    size_t len;
    /* w reached at iteration 300 (0xE000 + 300 * 0x200 = 0x33000), or never */
    const unsigned w_bytes[] = {0x33000, 0x33001, 0x100000};
    for (int i = 0; i < 3; i++) {
        char *text = walk_text(400, w_bytes[i], &len);
        check_blocks_match_parser(text, len);
        free(text);
    }
}
END_TEST

/* The open-time scan compares a loop's text with the period before it (kernel/trace_read.c,
 * sp_repeats): a period that repeats is taken at once, one that differs where a line's token or a
 * newline is goes a line at a time.  Clean loops (test_trace_template_matches_parser) take the
 * repeats; here a line deep in block 1 of template_text is spoiled after many repeated periods, and
 * the error is the general scan's, at its line: a mnemonic changed in place (same length), a token
 * run into its fields, a newline put in place of an offset's digit, and lines joined earlier (the
 * line numbers after them move). */
static char *nth_after(char *text, const char *from, const char *what, int n)
{
    char *p = strstr(text, from);
    ck_assert_ptr_nonnull(p);
    for (int i = 0; i < n; i++) {
        p = strstr(p + 1, what);
        ck_assert_ptr_nonnull(p);
    }
    return p;
}

static int line_at(const char *text, const char *p)
{
    int line = 1;
    for (const char *q = text; q < p; q++)
        line += *q == '\n';
    return line;
}

START_TEST(test_trace_scan_period_errors_where_they_are)
{
    for (int kind = 0; kind < 5; kind++) {
        size_t len;
        char *text = template_text(300, 0, -1, 0, &len);
        char *v = nth_after(text, "block 1\n", "\nvadd ", 150) + 1;
        char want[96];
        int col = 1;
        if (kind == 0) { /* vadd -> vaxd */
            v[2] = 'x';
            snprintf(want, sizeof want, "unknown mnemonic 'vaxd'");
        } else if (kind == 1) { /* vadd -> vadd=dst=...: one token */
            v[4] = '=';
            snprintf(want, sizeof want, "unknown mnemonic 'vadd=dst=ub:0x1");
        } else { /* a newline in place of an offset's digit: the rest of that line is a line */
            char *o = nth_after(text, "block 1\n", "src=x+0x", 150) + strlen("src=x+0x") + 1;
            *o = '\n';
            const char *end = strchr(o + 1, ' ');
            snprintf(want, sizeof want, "unknown mnemonic '%.*s'", (int)(end - o - 1), o + 1);
            v = o + 1;
            if (kind == 3) /* and the same a period later: the first is reported */
                nth_after(v, "\n", "src=x+0x", 2)[9] = '\n';
        }
        int line = line_at(text, v);
        if (kind == 4) { /* two lines joined 100 iterations before */
            char *j = nth_after(text, "block 1\n", "\nset_flag src=V dst=MTE3", 50);
            *strchr(j + 1, '\n') = ' ';
            line--;
        }
        expect_error(text, line, col, want);
        /* found by the scan (dv_trace_open), not when the block is read */
        dv_kernel_t *k = NULL;
        dv_error_t err;
        ck_assert_int_ne(dv_trace_open_string(text, "t.trace", &k, &err), DV_OK);
        ck_assert_int_eq(err.line, line);
        free(text);
    }
}
END_TEST

/* The scan's repeats go on across the file reader's refills (kernel/trace_read.c, reader_fill_hist
 * keeps the period before the new bytes in front of them): a NUL byte, or a mnemonic changed, put at
 * each of many places over the first refills of a clean loop is found by dv_trace_open at its line
 * and column, as in the text read from memory (one buffer, no refill). */
START_TEST(test_trace_scan_period_across_refills)
{
    size_t len;
    char *clean = template_text(60, 0, -1, 0, &len);
    const size_t from = (size_t)(strstr(clean, "block 0\n") - clean) + 8;
    ck_assert_uint_gt(len, 3 * 16384 + 256);
    char *text = malloc(len + 1);
    ck_assert_ptr_nonnull(text);
    for (size_t at = 16384 - 2200; at < 3 * 16384 + 256; at += 127)
        for (int kind = 0; kind < 2; kind++) {
            memcpy(text, clean, len + 1);
            if (at < from || text[at] == '\n')
                continue;
            size_t ls = at;
            while (text[ls - 1] != '\n')
                ls--;
            char want[96];
            int col;
            if (kind == 0) {
                text[at] = '\0';
                snprintf(want, sizeof want, "a NUL byte");
                col = (int)(at - ls) + 1;
            } else {
                text[ls] = 'q';
                snprintf(want, sizeof want, "unknown mnemonic '%.*s'", (int)strcspn(text + ls, " "), text + ls);
                col = 1;
            }
            const int line = line_at(text, text + at);
            char path[64];
            write_temp_bytes(text, len, path, sizeof path);
            for (int file = 0; file < 2; file++) {
                dv_kernel_t *k = NULL;
                dv_error_t err;
                const int rc = file ? dv_trace_open(path, &k, &err) : dv_trace_open_bytes(text, len, "t.trace", &k, &err);
                ck_assert_msg(rc != DV_OK && err.line == line && err.col == col && strstr(err.msg, want),
                              "at %zu (%s): expected %d:%d '%s', got %d %d:%d '%s'", at, file ? "file" : "memory", line,
                              col, want, rc, err.line, err.col, rc ? err.msg : "");
            }
            unlink(path);
        }
    free(text);
    free(clean);
}
END_TEST

/* The long compares have a wide form taken on a CPU with AVX2 (kernel/trace_read.c, sp_repeats_wide
 * and text_equal_wide: 64 bytes a step in two halves): a change at any place of a period or of an
 * iteration is seen, whichever half of a step it falls in.  Deep in block 1 of a clean loop, each
 * line of two periods in turn gets its mnemonic spoiled (the scan's error at its line, by both
 * readers), and in a loop of walk_text each digit of the GM offsets of two iterations in turn is
 * changed (each instruction is the parser's: the template must not take the iteration as its
 * expected text). */
static void wide_compares_see_every_place(void)
{
    size_t len;
    char *clean = template_text(300, 0, -1, 0, &len);
    char *text = malloc(len + 1);
    ck_assert_ptr_nonnull(text);
    const size_t from = (size_t)(nth_after(clean, "block 1\n", "\nscalar ", 150) + 1 - clean);
    const size_t to = (size_t)(nth_after(clean, "block 1\n", "\nscalar ", 154) + 1 - clean);
    char path[64];
    for (size_t at = from; at < to; at++) {
        if (clean[at - 1] != '\n')
            continue;
        memcpy(text, clean, len + 1);
        text[at] = 'q';
        /* the word copied out, not printed with %.*s: at -O1 with the sanitizers GCC takes text + at
         * for possibly null there, and -Werror=format-truncation stopped make asan */
        char word[64] = "", want[96];
        const size_t n = strcspn(text + at, " ");
        memcpy(word, text + at, n < sizeof word - 1 ? n : sizeof word - 1);
        snprintf(want, sizeof want, "unknown mnemonic '%s'", word);
        const int line = line_at(text, text + at);
        write_temp_bytes(text, len, path, sizeof path);
        for (int file = 0; file < 2; file++) {
            dv_kernel_t *k = NULL;
            dv_error_t err;
            const int rc = file ? dv_trace_open(path, &k, &err) : dv_trace_open_bytes(text, len, "t.trace", &k, &err);
            ck_assert_msg(rc != DV_OK && err.line == line && err.col == 1 && strstr(err.msg, want),
                          "at %zu (%s): expected %d:1 '%s', got %d %d:%d '%s'", at, file ? "file" : "memory", line, want,
                          rc, err.line, err.col, rc ? err.msg : "");
        }
        unlink(path);
    }
    free(text);
    free(clean);
    clean = walk_text(60, 0x100000, &len); /* (offsets under 2^32: matched as the expected text) */
    text = malloc(len + 1);
    ck_assert_ptr_nonnull(text);
    const size_t from2 = (size_t)(nth_after(clean, "block 1\n", "\nscalar ", 50) + 1 - clean);
    const size_t to2 = (size_t)(nth_after(clean, "block 1\n", "\nscalar ", 52) + 1 - clean);
    int changed = 0;
    for (size_t at = from2; at < to2; at++) {
        /* a digit of an offset of x, y or z: between "+0x" and the blank after it */
        const char *plus = NULL;
        for (const char *q = clean + at; q > clean + from2 && *q != ' ' && *q != '\n'; q--)
            if (*q == '+')
                plus = q;
        if (!plus || clean + at < plus + 3 || !isxdigit((unsigned char)clean[at]))
            continue;
        memcpy(text, clean, len + 1);
        text[at] = clean[at] == '1' ? '2' : '1';
        check_blocks_match_parser(text, len);
        changed++;
    }
    ck_assert_int_ge(changed, 30);
    free(text);
    free(clean);
}

START_TEST(test_trace_wide_compares_see_every_place)
{
    /* the form this CPU takes (the 32-byte one where it has AVX2), then the baseline one */
    wide_compares_see_every_place();
    dv_trace_allow_wide(false);
    wide_compares_see_every_place();
    dv_trace_allow_wide(true);
}
END_TEST

/* ---------------------------------------------------------------- streaming */

/* blocks streams of per_block scalars, written last block first; aivs > 0: a mix kernel whose
 * blocks have the sub-streams aic, aiv0 .. aiv{aivs-1}, written last sub-stream first. */
static char *many_blocks_text(uint32_t blocks, uint32_t per_block, uint32_t aivs)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    const bool mix = aivs > 0;
    const uint32_t subs = mix ? 1 + aivs : 1;
    fprintf(m, "dvtrace 1\nkernel many kind=%s blocks=%u\n", mix ? "mix" : "vector", blocks);
    for (uint32_t b = blocks; b-- > 0;)
        for (uint32_t s = subs; s-- > 0;) {
            if (mix && s == 0)
                fprintf(m, "block %u aic\n", b);
            else if (mix)
                fprintf(m, "block %u aiv%u\n", b, s - 1);
            else
                fprintf(m, "block %u\n", b);
            for (uint32_t i = 0; i < per_block; i++)
                fprintf(m, "scalar cycles=%u\n", (b * subs + s) * 1000 + i + 1);
        }
    fprintf(m, "end\n");
    fclose(m);
    return text;
}

static void read_concurrently(dv_kernel_t *k, uint32_t per_block)
{
    uint32_t n = k->info.blocks * k->info.subs;
    dv_stream_t *st[16];
    dv_error_t err;
    ck_assert_uint_le(n, 16);
    for (uint32_t i = 0; i < n; i++)
        ck_assert_int_eq(k->open(k, i / k->info.subs, i % k->info.subs, &st[i], &err), DV_OK);
    /* a second stream of block 0 is independent of the first */
    dv_stream_t *dup;
    ck_assert_int_eq(k->open(k, 0, 0, &dup, &err), DV_OK);
    for (uint32_t j = 0; j < per_block; j++)
        for (uint32_t i = 0; i < n; i++) {
            dv_insn_t in;
            ck_assert_int_eq(st[i]->next(st[i], &in, &err), 1);
            ck_assert_int_eq(in.op, DV_OP_scalar);
            ck_assert_int_eq(in.f[0].i, (int64_t)(i * 1000 + j + 1));
            if (i == 0 && j < 2) {
                ck_assert_int_eq(dup->next(dup, &in, &err), 1);
                ck_assert_int_eq(in.f[0].i, (int64_t)(j + 1));
            }
        }
    for (uint32_t i = 0; i < n; i++) {
        dv_insn_t in;
        ck_assert_int_eq(st[i]->next(st[i], &in, &err), 0);
        st[i]->close(st[i]);
    }
    dup->close(dup);
}

START_TEST(test_trace_concurrent_streams)
{
    /* enough instructions that file streams refill their buffers several times */
    char *text = many_blocks_text(4, 3000, 0);
    char path[64];
    dv_kernel_t *k;
    dv_error_t err;
    ck_assert_int_eq(dv_trace_open_string(text, "s", &k, &err), DV_OK);
    read_concurrently(k, 3000);
    dv_trace_close(k);
    write_temp(text, path, sizeof path);
    ck_assert_int_eq(dv_trace_open(path, &k, &err), DV_OK);
    read_concurrently(k, 3000);
    dv_trace_close(k);
    unlink(path);
    free(text);
}
END_TEST

START_TEST(test_trace_mix_sub_streams)
{
    char *text = many_blocks_text(3, 5, 2);
    char path[64];
    dv_kernel_t *k;
    dv_error_t err;
    ck_assert_int_eq(dv_trace_open_string(text, "s", &k, &err), DV_OK);
    ck_assert_int_eq(k->info.kind, DV_KIND_MIX);
    ck_assert_uint_eq(k->info.subs, 3);
    read_concurrently(k, 5);
    dv_trace_close(k);
    write_temp(text, path, sizeof path);
    ck_assert_int_eq(dv_trace_open(path, &k, &err), DV_OK);
    read_concurrently(k, 5);
    dv_trace_close(k);
    unlink(path);
    free(text);
}
END_TEST

/* A mix kernel has as many AIV sub-streams as its blocks name (aiv0 .. aiv{n-1}), up to the limit
 * of DV_TOPO_AIV_MAX; the writer writes them back under the same names. */
START_TEST(test_trace_mix_any_aiv_count)
{
    for (uint32_t aivs = 1; aivs <= DV_TOPO_AIV_MAX; aivs++) {
        char *text = many_blocks_text(2, 3, aivs);
        dv_kernel_t *k;
        dv_error_t err;
        ck_assert_msg(dv_trace_open_string(text, "s", &k, &err) == DV_OK, "%u AIVs: %s", aivs, err.msg);
        ck_assert_uint_eq(k->info.subs, 1 + aivs);
        read_concurrently(k, 3);
        char *out = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&out, &len);
        ck_assert_int_eq(dv_trace_write_block(m, &k->info, 1, aivs), DV_OK);
        ck_assert_int_eq(dv_trace_write_block(m, &k->info, 0, 0), DV_OK);
        ck_assert_int_eq(dv_trace_write_block(m, &k->info, 0, aivs + 1), DV_ERR_RANGE);
        fclose(m);
        char want[64];
        snprintf(want, sizeof want, "block 1 aiv%u\nblock 0 aic\n", aivs - 1);
        ck_assert_str_eq(out, want);
        free(out);
        /* the profile check: the trace runs on the AIV count it names, located at kind= otherwise */
        dv_config_t cfg;
        char set[32];
        snprintf(set, sizeof set, "chip.aiv_per_core=%u", aivs);
        dvt_config(&cfg, NULL, (const char *const[]){set, NULL});
        ck_assert_int_eq(dv_trace_check_profile(k, &cfg, &err), DV_OK);
        snprintf(set, sizeof set, "chip.aiv_per_core=%u", aivs % DV_TOPO_AIV_MAX + 1);
        dvt_config(&cfg, NULL, (const char *const[]){set, NULL});
        ck_assert_int_eq(dv_trace_check_profile(k, &cfg, &err), DV_ERR_RANGE);
        ck_assert_str_eq(err.file, "s");
        ck_assert_int_eq(err.line, 2);
        ck_assert_int_eq(err.col, 18);
        ck_assert_ptr_nonnull(strstr(err.msg, "a mix kernel runs on the AIV count it was written for"));
        dvt_config(&cfg, "ascend910a", NULL);
        ck_assert_int_eq(dv_trace_check_profile(k, &cfg, &err), DV_ERR_UNSUPPORTED);
        ck_assert_int_eq(err.col, 18);
        ck_assert_ptr_nonnull(strstr(err.msg, "needs a split (AIC + AIV) chip; profile 'ascend910a' is coupled"));
        dv_trace_close(k);
        free(text);
    }
}
END_TEST

/* Streams keep what they need: the kernel may be closed before its open streams. */
START_TEST(test_trace_stream_outlives_kernel)
{
    char *text = many_blocks_text(2, 10, 0);
    char path[64];
    write_temp(text, path, sizeof path);
    dv_kernel_t *k;
    dv_stream_t *st;
    dv_insn_t in;
    dv_error_t err;
    ck_assert_int_eq(dv_trace_open(path, &k, &err), DV_OK);
    ck_assert_int_eq(k->open(k, 1, 0, &st, &err), DV_OK);
    dv_trace_close(k);
    for (int i = 0; i < 10; i++) {
        ck_assert_int_eq(st->next(st, &in, &err), 1);
        ck_assert_int_eq(in.f[0].i, 1000 + i + 1);
    }
    ck_assert_int_eq(st->next(st, &in, &err), 0);
    ck_assert_str_eq(st->source, path);
    st->close(st);
    unlink(path);
    free(text);
}
END_TEST

START_TEST(test_trace_open_missing_file)
{
    dv_kernel_t *k = (dv_kernel_t *)1;
    dv_error_t err;
    ck_assert_int_eq(dv_trace_open("/nonexistent/dir/x.trace", &k, &err), DV_ERR_IO);
    ck_assert_ptr_null(k);
    ck_assert_str_eq(err.file, "/nonexistent/dir/x.trace");
    ck_assert_ptr_nonnull(strstr(err.msg, "cannot open"));
}
END_TEST

START_TEST(test_trace_writer_rejects_bad_header)
{
    dv_arg_t args[2] = {make_arg("x", 16, DV_DT_F16, DV_ARG_IN, DV_INIT_ZERO, 0, NULL),
                        make_arg("x", 16, DV_DT_F16, DV_ARG_IN, DV_INIT_ZERO, 0, NULL)};
    dv_kernel_info_t info = {.name = "k", .kind = DV_KIND_VECTOR, .blocks = 1, .subs = 1, .nargs = 2, .args = args};
    FILE *f = fopen("/dev/null", "w");
    ck_assert_int_eq(dv_trace_write_header(f, &info), DV_ERR_RANGE); /* duplicate argument */
    info.nargs = 1;
    ck_assert_int_eq(dv_trace_write_header(f, &info), DV_OK);
    snprintf(args[0].name, sizeof args[0].name, "1x");
    ck_assert_int_eq(dv_trace_write_header(f, &info), DV_ERR_RANGE);
    snprintf(args[0].name, sizeof args[0].name, "x");
    args[0].init = DV_INIT_FILE;
    snprintf(args[0].path, sizeof args[0].path, "a b");
    ck_assert_int_eq(dv_trace_write_header(f, &info), DV_ERR_RANGE);
    info.blocks = 0;
    ck_assert_int_eq(dv_trace_write_header(f, &info), DV_ERR_RANGE);
    info.blocks = 1;
    ck_assert_int_eq(dv_trace_write_block(f, &info, 1, 0), DV_ERR_RANGE);
    ck_assert_int_eq(dv_trace_write_block(f, &info, 0, 1), DV_ERR_RANGE);
    fclose(f);
}
END_TEST

/* ---------------------------------------------------------------- errors: file:line:col and message */

#define HDR "dvtrace 1\nkernel k kind=vector blocks=1\narg x bytes=65536 dtype=f16 dir=in\nblock 0\n"
#define MIX "dvtrace 1\nkernel k kind=mix blocks=1\n"
#define VEC2 "dvtrace 1\nkernel k kind=vector blocks=2\n"

/* X(name, text, line, column, message substring) */
#define ERROR_CASES(X)                                                                                                  \
    X(empty_file, "", 1, 1, "expected 'dvtrace 1', got end of file")                                                   \
    X(bad_version, "dvtrace 2\nkernel k kind=vector blocks=1\nblock 0\nend\n", 1, 9, "unsupported trace version 2")   \
    X(version_not_a_number, "dvtrace one\n", 1, 9, "expected a version number, got 'one'")                             \
    X(missing_version_line, "kernel k kind=vector blocks=1\n", 1, 1, "expected 'dvtrace 1' on the first line")          \
    X(missing_kernel_line, "dvtrace 1\narg x bytes=1\n", 2, 1, "expected 'kernel NAME kind=vector|cube|mix blocks=N'") \
    X(kernel_bad_kind, "dvtrace 1\nkernel k kind=tensor blocks=1\n", 2, 15, "unknown kernel kind 'tensor'")           \
    X(kernel_missing_blocks, "dvtrace 1\nkernel k kind=vector\n", 2, 1, "missing required field 'blocks'")             \
    X(kernel_zero_blocks, "dvtrace 1\nkernel k kind=vector blocks=0\n", 2, 29, "'blocks' = 0 is out of range")         \
    X(kernel_missing_name, "dvtrace 1\nkernel kind=vector blocks=1\n", 2, 8, "expected a kernel name")                 \
    X(arg_unknown_field, "dvtrace 1\nkernel k kind=vector blocks=1\narg x bytes=4 color=red\n", 3, 15,                 \
      "unknown field 'color' in the arg line")                                                                          \
    X(arg_duplicate, "dvtrace 1\nkernel k kind=vector blocks=1\narg x bytes=4\narg x bytes=8\n", 4, 5,                 \
      "duplicate argument 'x'")                                                                                         \
    X(arg_missing_bytes, "dvtrace 1\nkernel k kind=vector blocks=1\narg x dtype=f16\n", 3, 1,                          \
      "missing required field 'bytes'")                                                                                 \
    X(arg_bad_init, "dvtrace 1\nkernel k kind=vector blocks=1\narg x bytes=4 init=ones\n", 3, 20,                      \
      "expected zero, random:SEED or file:PATH, got 'ones'")                                                           \
    X(arg_random_range_overflows, "dvtrace 1\nkernel k kind=vector blocks=1\narg x bytes=4 dtype=f16 init=random:1:-1e10:1e10\n", \
      3, 39, "the range -1e+10:1e+10 goes beyond the largest finite f16 (65504)")                                         \
    X(arg_bad_dir, "dvtrace 1\nkernel k kind=vector blocks=1\narg x bytes=4 dir=up\n", 3, 19, "unknown direction 'up'") \
    X(arg_after_block, HDR "arg y bytes=4\nend\n", 5, 1, "'arg' belongs to the header")                               \
    X(insn_before_block, "dvtrace 1\nkernel k kind=vector blocks=1\nset_mask_norm\n", 3, 1, "before the first block")  \
    X(unknown_mnemonic, HDR "set_mask_norm\n  vaddd x=1\nend\n", 6, 3, "unknown mnemonic 'vaddd'")                      \
    X(unknown_mnemonic_after_same_length, HDR "vadds\nvmuls\nvadds\nvaddS\nend\n", 8, 1, "unknown mnemonic 'vaddS'")   \
    X(unknown_field, HDR "set_flag src=MTE2 dst=V id=0 foo=1\nend\n", 5, 30, "unknown field 'foo' for set_flag")       \
    X(duplicate_field, HDR "set_flag src=MTE2 dst=V id=0 id=1\nend\n", 5, 30, "duplicate field 'id'")                  \
    X(missing_required_field, HDR "set_flag src=MTE2 dst=V\nend\n", 5, 1, "missing required field 'id'")               \
    X(not_name_value, HDR "set_flag foo\nend\n", 5, 10, "expected 'name=value', got 'foo'")                            \
    X(out_of_range, HDR "vadd dst=ub:0x8000 src0=ub:0x0 src1=ub:0x4000 dtype=f16 repeat=300\nend\n", 5, 64,           \
      "field 'repeat' = 300 is out of range [0, 255]")                                                                 \
    X(bad_integer, HDR "scalar cycles=12a\nend\n", 5, 15, "expected an integer (decimal or 0x hex), got '12a'")        \
    X(integer_overflow, HDR "scalar cycles=99999999999999999999\nend\n", 5, 15, "does not fit in 64 bits")             \
    X(wrong_space, HDR "copy_gm_to_ubuf dst=l1:0 src=x len=1\nend\n", 5, 21, "field 'dst' must address ub, not l1")     \
    X(unknown_space, HDR "copy_gm_to_ubuf dst=ram:0 src=x len=1\nend\n", 5, 21, "unknown address space 'ram'")         \
    X(gm_written_as_space, HDR "copy_gm_to_ubuf dst=ub:0 src=gm:0x10 len=1\nend\n", 5, 30,                             \
      "GM addresses are written ARG+OFFSET")                                                                            \
    X(unknown_gm_arg, HDR "copy_gm_to_ubuf dst=ub:0 src=q+0x10 len=1\nend\n", 5, 30, "unknown GM argument 'q'")         \
    X(gm_offset_too_large, HDR "copy_gm_to_ubuf dst=ub:0 src=x+0x10000 len=1\nend\n", 5, 32,                           \
      "GM offset 0x10000 must be less than the size of argument 'x' (65536 bytes)")                                    \
    X(gm_offset_not_number, HDR "copy_gm_to_ubuf dst=ub:0 src=x+y len=1\nend\n", 5, 32,                                \
      "GM offset must be a decimal or 0x hex number")                                                                   \
    X(local_offset_too_large, HDR "copy_gm_to_ubuf dst=ub:0x10000000000 src=x len=1\nend\n", 5, 24,                    \
      "does not fit in 40 bits")                                                                                        \
    X(unknown_dtype, HDR "vexp dst=ub:0 src=ub:0 dtype=f64 repeat=1\nend\n", 5, 30, "unknown dtype 'f64'")             \
    X(unsupported_dtype, HDR "vexp dst=ub:0 src=ub:0 dtype=s32 repeat=1\nend\n", 5, 30, "vexp: dtype s32 is not supported") \
    X(pipe_all_not_allowed, HDR "set_flag src=ALL dst=V id=0\nend\n", 5, 14, "pipe 'ALL' is not allowed here (expected one of S, V")       \
    X(barrier_pipe_s, HDR "pipe_barrier pipe=S\nend\n", 5, 19, "pipe 'S' is not allowed here (expected one of V, M")    \
    X(unknown_pipe, HDR "wait_flag src=MTE4 dst=V id=0\nend\n", 5, 15, "unknown pipe 'MTE4'")                          \
    X(unknown_cmp, HDR "vcmp dst=ub:0 src0=ub:0 src1=ub:0 dtype=f16 cmp=lte repeat=1\nend\n", 5, 49,                   \
      "unknown value 'lte' (expected one of eq, ne, lt, gt, le, ge)")                                                  \
    X(bad_f64, HDR "vadds dst=ub:0 src=ub:0 dtype=f16 scalar=1.5f repeat=1\nend\n", 5, 42, "expected a number")        \
    X(vconv_pair, HDR "vconv dst=ub:0 src=ub:0 dst_type=u8 src_type=f32 repeat=1\nend\n", 5, 1,                        \
      "conversion f32 -> u8 is not supported")                                                                         \
    X(transpose_needs_16bit, HDR "load_cbuf_to_ca dst=l0a:0 src=l1:0 dtype=f32 repeat=1 transpose=1\nend\n", 5, 65,   \
      "transpose is only for 16-bit types")                                                                            \
    X(missing_block, VEC2 "block 0\nend\n", 4, 1, "missing block 1")                                                   \
    X(duplicate_block, VEC2 "block 0\nblock 1\nblock 0\nend\n", 5, 7, "duplicate block 0 (first at line 3)")            \
    X(block_out_of_range, VEC2 "block 2\nend\n", 3, 7, "block 2 is out of range [0, 1]")                               \
    X(block_not_a_number, VEC2 "block one\n", 3, 7, "expected a block number, got 'one'")                              \
    X(junk_after_end, VEC2 "block 0\nblock 1\nend\n\nscalar cycles=1\n", 7, 1, "unexpected 'scalar' after 'end'")       \
    X(junk_on_end_line, VEC2 "block 0\nblock 1\nend now\n", 5, 5, "unexpected 'now' after 'end'")                      \
    X(missing_end, VEC2 "block 0\nblock 1\n", 5, 1, "expected 'end', got end of file")                                 \
    X(mix_missing_sub, MIX "block 0\n", 3, 8, "needs a sub-stream after the block number: aic, or aivN for N in [0, 3]") \
    X(mix_unknown_sub, MIX "block 0 aiv\n", 3, 9, "unknown sub-stream 'aiv' (expected aic, or aivN for N in [0, 3])")   \
    X(mix_sub_beyond_limit, MIX "block 0 aiv4\n", 3, 9,                                                              \
      "sub-stream 'aiv4' is beyond the limit: an AI core has at most 4 AIVs (aiv0 .. aiv3)")                          \
    X(mix_missing_sub_stream, MIX "block 0 aiv1\nblock 0 aic\nend\n", 5, 1, "missing block 0 aiv0")                    \
    X(mix_missing_last_sub_stream, "dvtrace 1\nkernel k kind=mix blocks=2\nblock 0 aic\nblock 0 aiv0\nblock 0 aiv1\n" \
      "block 1 aic\nblock 1 aiv0\nend\n", 8, 1, "missing block 1 aiv1 (the kernel declares blocks=2; each must appear "  \
      "once, with every sub-stream up to the last one used)")                                                          \
    X(mix_duplicate_sub, MIX "block 0 aic\nblock 0 aic\n", 4, 9, "duplicate block 0 aic (first at line 3)")            \
    X(sub_on_vector_kernel, VEC2 "block 0 aic\n", 3, 9, "has one stream per block")

#define DEFINE_ERROR_TEST(name, text, line, col, msg) \
    START_TEST(test_trace_error_##name) { expect_error(text, line, col, msg); } END_TEST
ERROR_CASES(DEFINE_ERROR_TEST)

START_TEST(test_trace_error_line_too_long)
{
    size_t n = 20000;
    char *text = malloc(n + 200);
    strcpy(text, VEC2 "block 0\n# ");
    size_t used = strlen(text);
    memset(text + used, 'x', n);
    strcpy(text + used + n, "\nblock 1\nend\n");
    expect_error(text, 4, 1, "line is longer than 16383 bytes");
    free(text);
}
END_TEST

/* dv_trace_parse_insn on its own: no header, locations still exact. */
START_TEST(test_trace_error_parse_insn_direct)
{
    dv_insn_t in;
    dv_error_t err;
    const char *l = "   ";
    ck_assert_int_eq(dv_trace_parse_insn(l, 3, NULL, "f", 9, &in, &err), DV_ERR_PARSE);
    ck_assert_int_eq(err.line, 9);
    ck_assert_ptr_nonnull(strstr(err.msg, "expected an instruction"));
    l = "copy_gm_to_ubuf dst=ub:0 src=x len=1";
    ck_assert_int_eq(dv_trace_parse_insn(l, strlen(l), NULL, "f", 9, &in, &err), DV_ERR_UNKNOWN);
    ck_assert_int_eq(err.col, 30);
    /* the length bounds the line: text past it is not read */
    l = "scalar cycles=12 garbage";
    ck_assert_int_eq(dv_trace_parse_insn(l, 16, NULL, "f", 1, &in, &err), DV_OK);
    ck_assert_int_eq(in.f[0].i, 12);
    ck_assert_int_eq(open_and_read(HDR "scalar cycles=0\nend\n", "o", &err), DV_ERR_RANGE);
    ck_assert_int_eq(err.col, 15);
}
END_TEST

/* Many arguments: each name is found again (a duplicate at any distance), the last one is usable. */
START_TEST(test_trace_many_arguments)
{
    const int n = 5000;
    const size_t cap = (size_t)n * 32 + 256;
    char *text = malloc(cap);
    ck_assert_ptr_nonnull(text);
    size_t at = (size_t)snprintf(text, cap, "dvtrace 1\nkernel k kind=vector blocks=1\n");
    for (int i = 0; i < n; i++)
        at += (size_t)snprintf(text + at, cap - at, "arg a%d bytes=32\n", i);
    snprintf(text + at, cap - at, "block 0\ncopy_gm_to_ubuf dst=ub:0 src=a%d len=1\nend\n", n - 1);
    dv_error_t err;
    ck_assert_int_eq(open_and_read(text, "m.trace", &err), DV_OK);
    snprintf(text + at, cap - at, "arg a%d bytes=32\nblock 0\nend\n", n / 3);
    ck_assert_int_lt(open_and_read(text, "m.trace", &err), 0);
    ck_assert_int_eq(err.line, n + 3);
    ck_assert_ptr_nonnull(strstr(err.msg, "duplicate argument 'a1666'"));
    free(text);
}
END_TEST

/* A NUL byte in a trace file is refused where it is; a line given with its length that holds one
 * (dv_trace_parse_insn) never matches a field name by it (was: read past the name). */
START_TEST(test_trace_error_nul_byte)
{
    static const char text[] = HDR "set_flag src\0=MTE2 dst=V id=0\nend\n";
    char path[64];
    write_temp_bytes(text, sizeof text - 1, path, sizeof path);
    dv_error_t err;
    ck_assert_int_eq(open_file_and_read(path, &err), DV_ERR_PARSE);
    unlink(path);
    ck_assert_int_eq(err.line, 5);
    ck_assert_int_eq(err.col, 13);
    ck_assert_ptr_nonnull(strstr(err.msg, "a NUL byte"));
    static const char line[] = "set_flag src\0=MTE2 dst=V id=0";
    dv_insn_t in;
    ck_assert_int_eq(dv_trace_parse_insn(line, sizeof line - 1, NULL, "f", 1, &in, &err), DV_ERR_UNKNOWN);
    ck_assert_int_eq(err.col, 10);
}
END_TEST

Suite *dv_trace_suite(void)
{
    Suite *s = suite_create("trace");
    TCase *tc = tcase_create("round_trip");
    /* The template tests parse a few thousand generated iterations each (under a second of CPU here):
     * room for a loaded machine, where the default 4 s timed them out. */
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_trace_insn_round_trip_every_opcode);
    tcase_add_test(tc, test_trace_canonical_text_round_trip);
    tcase_add_test(tc, test_trace_noncanonical_text_normalises);
    tcase_add_test(tc, test_trace_f64_special_values);
    tcase_add_test(tc, test_trace_format_small_buffer);
    tcase_add_test(tc, test_trace_file_round_trip_byte_identical);
    tcase_add_test(tc, test_trace_header_fields_and_defaults);
    tcase_add_test(tc, test_trace_insn_line_numbers);
    tcase_add_test(tc, test_trace_shape_decoded_lines_match_parser);
    tcase_add_test(tc, test_trace_shape_errors_are_the_parsers);
    tcase_add_test(tc, test_trace_shape_offsets_remembered_match_parser);
    tcase_add_test(tc, test_trace_loop_lines_match_parser);
    tcase_add_test(tc, test_trace_loop_errors_where_they_are);
    tcase_add_test(tc, test_trace_replayed_loop_matches_parser);
    tcase_add_test(tc, test_trace_template_matches_parser);
    tcase_add_test(tc, test_trace_template_walks_together_match_parser);
    tcase_add_test(tc, test_trace_scan_period_errors_where_they_are);
    tcase_add_test(tc, test_trace_scan_period_across_refills);
    tcase_add_test(tc, test_trace_wide_compares_see_every_place);
    tcase_add_test(tc, test_trace_writer_rejects_bad_header);
    suite_add_tcase(s, tc);

    tc = tcase_create("streams");
    tcase_add_test(tc, test_trace_concurrent_streams);
    tcase_add_test(tc, test_trace_mix_sub_streams);
    tcase_add_test(tc, test_trace_mix_any_aiv_count);
    tcase_add_test(tc, test_trace_stream_outlives_kernel);
    tcase_add_test(tc, test_trace_open_missing_file);
    suite_add_tcase(s, tc);

    tc = tcase_create("errors");
#define ADD_ERROR_TEST(name, text, line, col, msg) tcase_add_test(tc, test_trace_error_##name);
    ERROR_CASES(ADD_ERROR_TEST)
    tcase_add_test(tc, test_trace_error_line_too_long);
    tcase_add_test(tc, test_trace_error_nul_byte);
    tcase_add_test(tc, test_trace_many_arguments);
    tcase_add_test(tc, test_trace_error_parse_insn_direct);
    suite_add_tcase(s, tc);
    return s;
}
