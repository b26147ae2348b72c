/* tests/check_trace_binary.c - the binary trace form (traces/FORMAT.md section 10): every shipped
 * trace round-trips text -> binary -> text and runs to the same report, and every damaged file is a
 * located error (file name, block and record or byte offset), never a crash. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dv/trace.h"
#include "support/clit.h"

Suite *dv_trace_binary_suite(void);

static const char *const shipped[] = {"conv_tile_310", "matmul_relu_mix", "matmul_tile", "missing_wait",
                                      "vadd_double_buffer"};
/* The profile each shipped trace runs on (the others take the default). */
static const char *profile_of(const char *name)
{
    return strcmp(name, "conv_tile_310") == 0 ? "--profile ascend310" : "";
}

/* ---------------------------------------------------------------- helpers */

static void setup(void)
{
    clit_setup_named("dvsim-binary");
    setenv("DVSIM", clit_program(), 0); /* the second dvsim of a command line is $DVSIM */
}
static void teardown(void) { clit_teardown(); }

static uint8_t *slurp_bytes(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    ck_assert_uint_eq(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return b;
}

static void spill(const char *path, const void *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(b, 1, n, f), n);
    fclose(f);
}

static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void put_le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Where the binary's stream index and its entry `n` are. */
static size_t index_at(const uint8_t *b, size_t n) { return (size_t)le64(b + n - 16); }
static size_t entry_at(const uint8_t *b, size_t n, size_t e) { return index_at(b, n) + 8 + 32 * e; }

/* Every instruction of k, read stream by stream; the first error's status, else DV_OK. */
static int read_all(dv_kernel_t *k, dv_error_t *err)
{
    int rc = DV_OK;
    for (uint32_t b = 0; b < k->info.blocks && rc == DV_OK; b++)
        for (uint32_t s = 0; s < k->info.subs && rc == DV_OK; s++) {
            dv_stream_t *st;
            dv_insn_t in;
            ck_assert_int_eq(k->open(k, b, s, &st, err), DV_OK);
            while ((rc = st->next(st, &in, err)) > 0)
                rc = DV_OK;
            st->close(st);
        }
    return rc;
}

/* Open bytes from memory and from a file: both fail alike; the in-memory error is returned. */
static int open_bytes_error(const uint8_t *b, size_t n, dv_error_t *err)
{
    dv_kernel_t *k = NULL;
    dv_error_t e2;
    int rc = dv_trace_open_bytes(b, n, "t.dvtb", &k, err);
    if (rc == DV_OK) {
        rc = read_all(k, err);
        dv_trace_close(k);
    }
    char path[128];
    snprintf(path, sizeof path, "%s/t.dvtb", clit_tmp);
    spill(path, b, n);
    int rc2 = dv_trace_open(path, &k, &e2);
    if (rc2 == DV_OK) {
        rc2 = read_all(k, &e2);
        dv_trace_close(k);
    }
    ck_assert_int_eq(rc2, rc);
    if (rc != DV_OK) {
        ck_assert_str_eq(err->file, "t.dvtb");
        ck_assert_str_eq(e2.file, path);
        ck_assert_str_eq(e2.msg, err->msg);
    }
    return rc;
}

static void expect_error(const uint8_t *b, size_t n, const char *want)
{
    dv_error_t e;
    ck_assert_msg(open_bytes_error(b, n, &e) < 0, "no error, expected '%s'", want);
    ck_assert_msg(strstr(e.msg, want) != NULL, "expected '%s', got '%s'", want, e.msg);
}

/* A kernel whose block 0 is a fixed list of instructions (the writer takes any dv_kernel_t). */
typedef struct fake {
    dv_kernel_t k;
    dv_arg_t arg;
    const dv_insn_t *insns;
    int n;
} fake_t;

typedef struct fake_stream {
    dv_stream_t s;
    const fake_t *f;
    int i;
} fake_stream_t;

static int fake_next(dv_stream_t *s, dv_insn_t *out, dv_error_t *err)
{
    (void)err;
    fake_stream_t *fs = (fake_stream_t *)s;
    if (fs->i == fs->f->n)
        return 0;
    *out = fs->f->insns[fs->i++];
    return 1;
}

static void fake_close(dv_stream_t *s) { free(s); }

static int fake_open(dv_kernel_t *k, uint32_t block, uint32_t sub, dv_stream_t **out, dv_error_t *err)
{
    (void)block, (void)sub, (void)err;
    fake_stream_t *fs = calloc(1, sizeof *fs);
    fs->f = (const fake_t *)k;
    fs->s.next = fake_next;
    fs->s.close = fake_close;
    fs->s.source = "fake";
    *out = &fs->s;
    return DV_OK;
}

/* vadd on ub with repeat `repeat` (not range-checked: the writer writes what it is given). */
static dv_insn_t vadd(int64_t repeat)
{
    dv_insn_t in;
    dv_insn_init(&in, DV_OP_vadd);
    in.f[DV_FLD(VBIN, dst)].u = DV_ADDR(DV_SPACE_UB, 0);
    in.f[DV_FLD(VBIN, src0)].u = DV_ADDR(DV_SPACE_UB, 0x100);
    in.f[DV_FLD(VBIN, src1)].u = DV_ADDR(DV_SPACE_UB, 0x200);
    in.f[DV_FLD(VBIN, dtype)].i = DV_DT_F16;
    in.f[DV_FLD(VBIN, repeat)].i = repeat;
    return in;
}

/* The binary of a one-block vector kernel with `n` instructions, as bytes (malloc'ed). */
static uint8_t *fake_binary(const dv_insn_t *insns, int n, size_t *len)
{
    fake_t f = {.insns = insns, .n = n};
    snprintf(f.k.info.name, sizeof f.k.info.name, "k");
    f.k.info.kind = DV_KIND_VECTOR;
    f.k.info.blocks = 1;
    f.k.info.subs = 1;
    f.arg = (dv_arg_t){.bytes = 4096, .dtype = DV_DT_F16, .dir = DV_ARG_IN};
    snprintf(f.arg.name, sizeof f.arg.name, "x");
    f.k.info.nargs = 1;
    f.k.info.args = &f.arg;
    f.k.open = fake_open;
    char path[128];
    dv_error_t err;
    snprintf(path, sizeof path, "%s/fake.dvtb", clit_tmp);
    ck_assert_msg(dv_trace_save(&f.k, path, DV_TRACE_BINARY, &err) == DV_OK, "%s", err.msg);
    return slurp_bytes(path, len);
}

/* ---------------------------------------------------------------- round trips */

/* Two kernels give the same header and, stream by stream, the same instructions (line numbers
 * included, doubles bit for bit). */
static void assert_same_kernel(dv_kernel_t *a, dv_kernel_t *b, const char *name)
{
    ck_assert_str_eq(a->info.name, b->info.name);
    ck_assert_int_eq(a->info.kind, b->info.kind);
    ck_assert_uint_eq(a->info.blocks, b->info.blocks);
    ck_assert_uint_eq(a->info.subs, b->info.subs);
    ck_assert_uint_eq(a->info.nargs, b->info.nargs);
    for (uint32_t i = 0; i < a->info.nargs; i++) {
        dv_arg_t x = a->info.args[i], y = b->info.args[i];
        x.line = y.line = 0; /* the binary's header has no comment lines */
        ck_assert_msg(memcmp(&x, &y, sizeof x) == 0, "%s: argument %u differs", name, i);
    }
    for (uint32_t bl = 0; bl < a->info.blocks; bl++)
        for (uint32_t s = 0; s < a->info.subs; s++) {
            dv_stream_t *sa, *sb;
            dv_insn_t ia, ib;
            dv_error_t err;
            ck_assert_int_eq(a->open(a, bl, s, &sa, &err), DV_OK);
            ck_assert_int_eq(b->open(b, bl, s, &sb, &err), DV_OK);
            int ra, rb, n = 0;
            while ((ra = sa->next(sa, &ia, &err)) > 0) {
                rb = sb->next(sb, &ib, &err);
                ck_assert_msg(rb == 1, "%s: block %u sub %u: binary ends at %d (%s)", name, bl, s, n, err.msg);
                /* the header and the nf fields (the fields past nf are not part of an instruction: dv_insn_copy) */
                ck_assert_msg(ia.nf == ib.nf && memcmp(&ia, &ib, offsetof(dv_insn_t, f) + ia.nf * sizeof ia.f[0]) == 0,
                              "%s: block %u sub %u instruction %d differs (line %u/%u)",
                              name, bl, s, n, ia.line, ib.line);
                n++;
            }
            ck_assert_int_eq(ra, 0);
            ck_assert_int_eq(sb->next(sb, &ib, &err), 0);
            sa->close(sa);
            sb->close(sb);
        }
}

/* Every shipped trace: text -> binary -> text is the canonical text (dv_trace_format_insn) of the
 * original, and both forms decode to the same instructions. */
START_TEST(test_trace_binary_round_trip_shipped_traces)
{
    for (size_t t = 0; t < sizeof shipped / sizeof shipped[0]; t++) {
        char src[512], bin[256], canon[256], back[256];
        dv_kernel_t *k = NULL, *kb = NULL;
        dv_error_t err;
        snprintf(src, sizeof src, "%s/traces/%s.trace", clit_root(), shipped[t]);
        snprintf(bin, sizeof bin, "%s/%s.dvtb", clit_tmp, shipped[t]);
        snprintf(canon, sizeof canon, "%s/%s.canon", clit_tmp, shipped[t]);
        snprintf(back, sizeof back, "%s/%s.back", clit_tmp, shipped[t]);
        ck_assert_msg(dv_trace_open(src, &k, &err) == DV_OK, "%s: %s", src, err.msg);
        ck_assert_msg(dv_trace_save(k, canon, DV_TRACE_TEXT, &err) == DV_OK, "%s", err.msg);
        ck_assert_msg(dv_trace_save(k, bin, DV_TRACE_BINARY, &err) == DV_OK, "%s", err.msg);
        ck_assert_msg(dv_trace_open(bin, &kb, &err) == DV_OK, "%s: %s", bin, err.msg);
        assert_same_kernel(k, kb, shipped[t]);
        ck_assert_msg(dv_trace_save(kb, back, DV_TRACE_TEXT, &err) == DV_OK, "%s", err.msg);
        size_t n1, n2, nb;
        uint8_t *c1 = slurp_bytes(canon, &n1), *c2 = slurp_bytes(back, &n2), *bb = slurp_bytes(bin, &nb);
        ck_assert_msg(n1 == n2 && memcmp(c1, c2, n1) == 0, "%s: text -> binary -> text differs from canonical text",
                      shipped[t]);
        ck_assert_msg(nb < n1, "%s: binary %zu bytes, text %zu", shipped[t], nb, n1);
        /* the same from memory */
        dv_kernel_t *km = NULL;
        ck_assert_msg(dv_trace_open_bytes(bb, nb, "m", &km, &err) == DV_OK, "%s", err.msg);
        assert_same_kernel(k, km, shipped[t]);
        free(c1);
        free(c2);
        free(bb);
        dv_trace_close(km);
        dv_trace_close(kb);
        dv_trace_close(k);
    }
}
END_TEST

/* dvsim run of the binary gives a byte-identical text report and JSON to the run of the text (the
 * issue's Done-when); dvsim convert writes the binary and back. */
START_TEST(test_trace_binary_run_matches_text)
{
    for (size_t t = 0; t < sizeof shipped / sizeof shipped[0]; t++) {
        char cmd[1024];
        const char *n = shipped[t], *p = profile_of(n);
        snprintf(cmd, sizeof cmd,
                 "convert traces/%s.trace -o $T/%s.dvtb --binary && $DVSIM convert $T/%s.dvtb -o $T/%s.txt && "
                 "$DVSIM run %s traces/%s.trace --json $T/t.json --instr-csv $T/t.csv > $T/t.out && "
                 "$DVSIM run %s $T/%s.dvtb --json $T/b.json --instr-csv $T/b.csv > $T/b.out && "
                 "cmp $T/t.json $T/b.json && cmp $T/t.csv $T/b.csv && cmp $T/t.out $T/b.out",
                 n, n, n, n, p, n, p, n);
        ck_assert_msg(clit_dvsim(cmd) == 0, "%s: %s%s", n, clit_out, clit_err);
    }
}
END_TEST

/* dvsim record --binary writes what dvsim record writes, in the binary form: both replay alike. */
START_TEST(test_trace_binary_record_replays_like_text)
{
    const char *op = "conv2d --n 1 --cin 16 --h 9 --w 9 --cout 16 --kh 3 --kw 3 --pad 1";
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "record %s -o $T/k.trace && $DVSIM record %s -o $T/k.dvtb --binary && "
             "$DVSIM run $T/k.trace --json $T/t.json --quiet && $DVSIM run $T/k.dvtb --json $T/b.json --quiet && "
             "cmp $T/t.json $T/b.json && $DVSIM convert $T/k.dvtb -o $T/back.trace && cmp $T/k.trace $T/back.trace",
             op, op);
    ck_assert_msg(clit_dvsim(cmd) == 0, "%s%s", clit_out, clit_err);
    ck_assert_int_eq(clit_dvsim("convert traces/matmul_tile.trace"), 2);
    ck_assert_msg(strstr(clit_err, "convert: missing -o FILE"), "%s", clit_err);
    ck_assert_int_eq(clit_dvsim("convert -o $T/x"), 2);
    ck_assert_msg(strstr(clit_err, "convert: missing TRACE"), "%s", clit_err);
    ck_assert_int_eq(clit_dvsim("convert $T/none.trace -o $T/x --binary"), 1);
    ck_assert_msg(strstr(clit_err, "none.trace: error: cannot open"), "%s", clit_err);
}
END_TEST

/* Every field and the line numbers come back exactly; a line the canonical text would not give is kept. */
START_TEST(test_trace_binary_insn_values_exact)
{
    size_t n;
    dv_insn_t in[2] = {vadd(255), vadd(0)};
    in[1].line = 77; /* kept: a line the canonical text would not give */
    uint8_t *b = fake_binary(in, 2, &n);
    dv_kernel_t *k;
    dv_stream_t *st;
    dv_insn_t out;
    dv_error_t err;
    ck_assert_msg(dv_trace_open_bytes(b, n, "v", &k, &err) == DV_OK, "%s", err.msg);
    ck_assert_int_eq(k->open(k, 0, 0, &st, &err), DV_OK);
    ck_assert_int_eq(st->next(st, &out, &err), 1);
    in[0].line = 5; /* header: 3 lines, block line 4 */
    ck_assert_msg(memcmp(&in[0], &out, sizeof out) == 0, "first instruction differs");
    ck_assert_int_eq(st->next(st, &out, &err), 1);
    ck_assert_msg(memcmp(&in[1], &out, sizeof out) == 0, "second instruction differs");
    ck_assert_int_eq(st->next(st, &out, &err), 0);
    st->close(st);
    dv_trace_close(k);
    free(b);
}
END_TEST

/* Doubles are written bit for bit, except NaN: every NaN becomes the NaN that text's "nan" reads as,
 * so a binary trace and the text of the same kernel read alike. */
START_TEST(test_trace_binary_doubles_bit_exact_nan_canonical)
{
    static const double values[] = {-1.25e-7, 0.1, -0.0, 1e300, 4.9406564584124654e-324, 1.0 / 3.0};
    enum { N = sizeof values / sizeof values[0] + 1 };
    dv_insn_t in[N];
    for (int i = 0; i < N; i++) {
        dv_insn_init(&in[i], DV_OP_vadds);
        in[i].f[DV_FLD(VSCALAR, dst)].u = DV_ADDR(DV_SPACE_UB, 0);
        in[i].f[DV_FLD(VSCALAR, src)].u = DV_ADDR(DV_SPACE_UB, 0x100);
        in[i].f[DV_FLD(VSCALAR, dtype)].i = DV_DT_F32;
        in[i].f[DV_FLD(VSCALAR, repeat)].i = 1;
        in[i].f[DV_FLD(VSCALAR, scalar)].d = i < N - 1 ? values[i] : 0.0;
    }
    in[N - 1].f[DV_FLD(VSCALAR, scalar)].u = 0xfff4000000000001ull; /* a negative signalling NaN with a payload */
    size_t n;
    uint8_t *b = fake_binary(in, N, &n);
    dv_kernel_t *k;
    dv_stream_t *st;
    dv_insn_t out;
    dv_error_t err;
    ck_assert_msg(dv_trace_open_bytes(b, n, "d", &k, &err) == DV_OK, "%s", err.msg);
    ck_assert_int_eq(k->open(k, 0, 0, &st, &err), DV_OK);
    for (int i = 0; i < N; i++) {
        ck_assert_int_eq(st->next(st, &out, &err), 1);
        const uint64_t want = i < N - 1 ? in[i].f[DV_FLD(VSCALAR, scalar)].u : (dv_val_t){.d = strtod("nan", NULL)}.u;
        ck_assert_msg(out.f[DV_FLD(VSCALAR, scalar)].u == want, "value %d: %016llx, want %016llx", i,
                      (unsigned long long)out.f[DV_FLD(VSCALAR, scalar)].u, (unsigned long long)want);
    }
    st->close(st);
    dv_trace_close(k);
    free(b);
}
END_TEST

/* ---------------------------------------------------------------- errors */

START_TEST(test_trace_binary_error_truncated)
{
    size_t n;
    dv_insn_t in[3] = {vadd(1), vadd(2), vadd(3)};
    uint8_t *b = fake_binary(in, 3, &n);
    for (size_t cut = 0; cut < n; cut++) {
        dv_error_t e;
        if (cut == 0) { /* empty: the text reader's error */
            ck_assert_int_lt(open_bytes_error(b, cut, &e), 0);
            continue;
        }
        ck_assert_msg(open_bytes_error(b, cut, &e) < 0, "no error for the first %zu of %zu bytes", cut, n);
        ck_assert_msg(strstr(e.msg, "truncated binary trace") || strstr(e.msg, "bad magic"), "%zu: %s", cut, e.msg);
    }
    expect_error(b, 5, "byte 5: truncated binary trace: the file ends inside the magic");
    expect_error(b, n - 1, "truncated binary trace: the file does not end with the trailer");
    free(b);
}
END_TEST

START_TEST(test_trace_binary_error_magic_and_version)
{
    size_t n;
    dv_insn_t in[1] = {vadd(1)};
    uint8_t *b = fake_binary(in, 1, &n);
    b[3] = 'X';
    expect_error(b, n, "byte 3: bad magic: not a dvsim binary trace");
    b[3] = 'T';
    b[8] = 7;
    expect_error(b, n, "byte 8: unsupported binary trace version 7 (this reader reads version 1)");
    b[8] = 1;
    b[20] ^= 1; /* the ISA fingerprint */
    expect_error(b, n, "byte 16: the trace was written for another instruction table");
    b[20] ^= 1;
    b[12] = 0xff, b[13] = 0xff, b[14] = 0xff; /* the header's length */
    expect_error(b, n, "byte 12: the header's length 16777215 runs past the end of the file");
    free(b);
}
END_TEST

START_TEST(test_trace_binary_error_header_located)
{
    size_t n;
    dv_insn_t in[1] = {vadd(1)};
    uint8_t *b = fake_binary(in, 1, &n);
    uint8_t *kind = NULL;
    for (size_t i = 0; !kind && i + 11 <= n; i++)
        if (memcmp(b + i, "kind=vector", 11) == 0)
            kind = b + i;
    ck_assert_ptr_nonnull(kind);
    memcpy(kind + 5, "vectox", 6);
    dv_error_t e;
    ck_assert_int_lt(open_bytes_error(b, n, &e), 0);
    ck_assert_int_eq(e.line, 2);
    ck_assert_int_eq(e.col, 15);
    ck_assert_msg(strstr(e.msg, "unknown kernel kind 'vectox'"), "%s", e.msg);
    free(b);
}
END_TEST

START_TEST(test_trace_binary_error_index)
{
    size_t n;
    dv_insn_t in[2] = {vadd(1), vadd(2)};
    uint8_t *b = fake_binary(in, 2, &n);
    const size_t e0 = entry_at(b, n, 0), ix = index_at(b, n);
    const uint64_t off = le64(b + e0), bytes = le64(b + e0 + 8);
    char want[160];
    put_le64(b + e0, n + 100); /* stream offset past the end */
    snprintf(want, sizeof want, "byte %zu: block 0 sub 0: stream offset %zu is outside the stream data", e0, n + 100);
    expect_error(b, n, want);
    put_le64(b + e0, off);
    put_le64(b + e0 + 8, bytes + 1); /* runs into the index */
    expect_error(b, n, "block 0 sub 0: the stream's");
    put_le64(b + e0 + 8, bytes);
    put_le64(b + e0 + 16, bytes + 1); /* more records than bytes */
    expect_error(b, n, "records cannot fit in");
    put_le64(b + e0 + 16, 1); /* fewer records than the bytes hold */
    expect_error(b, n, "block 0, record 2 (byte");
    expect_error(b, n, "bytes after the last of the stream's 1 records");
    put_le64(b + e0 + 16, 2);
    b[ix] = 2; /* two streams per block for a vector kernel */
    expect_error(b, n, "2 streams per block is out of range [1, 1] for a kind=vector kernel");
    b[ix] = 1;
    put_le64(b + n - 16, n); /* index offset past the end */
    expect_error(b, n, "the stream index's offset");
    free(b);
}
END_TEST

START_TEST(test_trace_binary_error_records)
{
    size_t n;
    dv_insn_t in[2] = {vadd(1), vadd(300)};
    uint8_t *b = fake_binary(in, 2, &n);
    const size_t e0 = entry_at(b, n, 0);
    const size_t off = (size_t)le64(b + e0), bytes = (size_t)le64(b + e0 + 8);
    char want[200];
    /* a field out of range: dv_insn_check's message, at the record */
    snprintf(want, sizeof want, "block 0, record 2 (byte %zu): vadd: field 'repeat' = 300 is out of range [0, 255]",
             off + bytes / 2);
    expect_error(b, n, want);
    /* a varint that runs past the end of its stream (the last field's last byte continues) */
    b[off + bytes - 1] |= 0x80;
    expect_error(b, n, "block 0, record 2 (byte");
    expect_error(b, n, "src1_rep: the varint runs past the end of the stream");
    /* an opcode index beyond the table */
    uint8_t *c = malloc(n);
    memcpy(c, b, n);
    c[off] = (uint8_t)((DV_OP_COUNT << 1) | 0x80);
    c[off + 1] = (uint8_t)((DV_OP_COUNT << 1) >> 7);
    snprintf(want, sizeof want, "block 0, record 1 (byte %zu): bad opcode index %d (the ISA has %d instructions)", off,
             (int)DV_OP_COUNT, (int)DV_OP_COUNT);
    expect_error(c, n, want);
    /* a varint longer than 64 bits */
    memset(c + off, 0xff, bytes);
    expect_error(c, n, "block 0, record 1 (byte");
    expect_error(c, n, "opcode: the varint does not fit in 64 bits");
    free(c);
    free(b);
}
END_TEST

START_TEST(test_trace_binary_error_fields)
{
    size_t n;
    dv_insn_t in[1] = {vadd(1)};
    in[0].f[DV_FLD(VBIN, src1)].u = DV_GM_ADDR(0, 4000);
    uint8_t *b = fake_binary(in, 1, &n);
    const size_t off = (size_t)le64(b + entry_at(b, n, 0));
    /* a GM source for vadd: the space check of dv_insn_check */
    expect_error(b, n, "vadd: field 'src1' must address ub, not gm");
    /* the GM argument index beyond the header's: find src1's (space | arg << 8) varint, 0 */
    uint8_t *p = b + off + ((DV_OP_vadd << 1) < 0x80 ? 1 : 2) + 2 + 3; /* head, dst (1 + 1), src0 (1 + 2) */
    ck_assert_uint_eq(p[0], 0);
    p[0] = 0x80, p[1] = 0x02; /* GM (0) | argument 1 << 8 (the offset becomes the next byte) */
    expect_error(b, n, "field 'src1': GM argument 1 is out of range (the kernel has 1)");
    free(b);
    /* a writer refuses what no reader can take: a GM address of an argument the kernel lacks */
    in[0].f[DV_FLD(VBIN, src1)].u = DV_GM_ADDR(3, 0);
    fake_t f = {.insns = in, .n = 1};
    f.k.info = (dv_kernel_info_t){.name = "k", .kind = DV_KIND_VECTOR, .blocks = 1, .subs = 1};
    f.k.open = fake_open;
    dv_error_t err;
    char path[128];
    snprintf(path, sizeof path, "%s/bad.dvtb", clit_tmp);
    ck_assert_int_eq(dv_trace_save(&f.k, path, DV_TRACE_BINARY, &err), DV_ERR_RANGE);
    ck_assert_msg(strstr(err.msg, "block 0 sub 0, instruction 1: vadd: field src1 cannot be written"), "%s", err.msg);
    ck_assert_int_ne(access(path, F_OK), 0); /* whole or absent */
}
END_TEST

/* The quick pass keeps a record of a form of many fields by its bytes and takes a record that is the
 * same bytes as the kept instruction (kernel/trace_binary.c, bin_seen_t).  A loop of vadd records on
 * two buffers, with records that differ from a kept one only in their last field or in a line step,
 * read back: each instruction (line included) is the one written; a field out of range after many
 * kept records is the careful pass's error at its record. */
START_TEST(test_trace_binary_kept_records_match_written)
{
    enum { N = 900 };
    dv_insn_t *in = calloc(N, sizeof *in);
    ck_assert_ptr_nonnull(in);
    uint32_t line = 1;
    for (int i = 0; i < N; i++) {
        in[i] = vadd(64);
        in[i].f[DV_FLD(VBIN, dst)].u = DV_ADDR(DV_SPACE_UB, i % 2 ? 0x14000 : 0x10000);
        if (i % 7 == 3) /* the last byte differs from the kept record's */
            in[i].f[DV_FLD(VBIN, src1_rep)].i = 9;
        if (i % 11 == 5) /* the same fields at a line further on: a line step */
            line++;
        in[i].line = line++;
    }
    size_t n;
    uint8_t *b = fake_binary(in, N, &n);
    dv_kernel_t *k;
    dv_error_t err;
    ck_assert_int_eq(dv_trace_open_bytes(b, n, "t.dvtb", &k, &err), DV_OK);
    dv_stream_t *st;
    ck_assert_int_eq(k->open(k, 0, 0, &st, &err), DV_OK);
    for (int i = 0; i < N; i++) {
        dv_insn_t got;
        ck_assert_int_eq(st->next(st, &got, &err), 1);
        ck_assert_msg(got.nf == in[i].nf && memcmp(&got, &in[i], offsetof(dv_insn_t, f) + got.nf * sizeof got.f[0]) == 0,
                      "instruction %d differs (line %u, want %u)", i, got.line, in[i].line);
    }
    ck_assert_int_eq(st->next(st, &(dv_insn_t){0}, &err), 0);
    st->close(st);
    dv_trace_close(k);
    free(b);
    in[600].f[DV_FLD(VBIN, repeat)].i = 300;
    b = fake_binary(in, N, &n);
    expect_error(b, n, "block 0, record 601 (byte");
    expect_error(b, n, "vadd: field 'repeat' = 300 is out of range [0, 255]");
    free(b);
    free(in);
}
END_TEST

/* A FIFO or a directory given as a trace is refused before anything reads it (dv_open_regular). */
START_TEST(test_trace_binary_regular_files_only)
{
    dv_kernel_t *k;
    dv_error_t err;
    ck_assert_int_eq(dv_trace_open(clit_tmp, &k, &err), DV_ERR_IO);
    ck_assert_msg(strstr(err.msg, "not a regular file"), "%s", err.msg);
}
END_TEST

Suite *dv_trace_binary_suite(void)
{
    Suite *s = suite_create("trace_binary");
    TCase *tc = tcase_create("round_trip");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_trace_binary_round_trip_shipped_traces);
    tcase_add_test(tc, test_trace_binary_run_matches_text);
    tcase_add_test(tc, test_trace_binary_record_replays_like_text);
    tcase_add_test(tc, test_trace_binary_insn_values_exact);
    tcase_add_test(tc, test_trace_binary_doubles_bit_exact_nan_canonical);
    suite_add_tcase(s, tc);

    tc = tcase_create("errors");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_trace_binary_error_truncated);
    tcase_add_test(tc, test_trace_binary_error_magic_and_version);
    tcase_add_test(tc, test_trace_binary_error_header_located);
    tcase_add_test(tc, test_trace_binary_error_index);
    tcase_add_test(tc, test_trace_binary_error_records);
    tcase_add_test(tc, test_trace_binary_error_fields);
    tcase_add_test(tc, test_trace_binary_kept_records_match_written);
    tcase_add_test(tc, test_trace_binary_regular_files_only);
    suite_add_tcase(s, tc);
    return s;
}
