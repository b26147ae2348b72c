/* kernel/trace_binary.c - the compact binary form of a trace (traces/FORMAT.md section 10): the
 * writer of both forms (dv_trace_save) and the binary reader.
 *
 * A binary trace embeds its header as canonical text (parsed by the text reader, so header rules are
 * written once), then the streams as records of varints, then an index (block, sub) -> offset, byte
 * length, record count, and a trailer pointing at the index.  The reader maps the file and decodes
 * a record when the model asks for the next instruction; every offset, length, count, varint and
 * value is checked against the file's size and the tables before it is used, and every decoded
 * instruction goes through dv_insn_check's rules as a text one does.  A quick pass that checks as it
 * decodes (fast_record) takes the records it can vouch for; any other (a fault, or a record in the last
 * RECORD_MAX bytes of its stream) is read again by the careful pass, which names the fault. */
#define _DEFAULT_SOURCE /* madvise */
#include "trace_syntax.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "dv/file.h"
#include "dv/topology.h"

static const uint8_t MAGIC[8] = {DV_TRACE_BINARY_BYTE0, 'D', 'V', 'T', 'B', '\r', '\n', 0x1a};
static const uint8_t END_MAGIC[8] = {'D', 'V', 'T', 'B', 'E', 'N', 'D', '\n'};

enum {
    HEAD_BYTES = 24,    /* magic, u32 version, u32 header text bytes, u64 fingerprint of the ISA tables */
    TRAILER_BYTES = 16, /* u64 index offset, end magic */
    INDEX_HEAD = 8,     /* u32 subs, u32 reserved (0) */
    ENTRY_BYTES = 32,   /* u64 offset, u64 bytes, u64 records, u32 line before the first record, u32 0 */
    RECORD_MAX = 1024   /* the longest record: 2 + 24 fields of at most 2 varints (10 bytes each) */
};
/* fast_record reads at most an opcode and a line varint and two varints per field: with RECORD_MAX
 * bytes left in the stream it cannot read past its end, so it need not look. */
_Static_assert(RECORD_MAX >= 10 * (2 + 2 * DV_MAX_FIELDS), "RECORD_MAX covers the longest record");
#define RELEASE_BYTES (1u << 16) /* a stream hands back the mapped pages behind it every 64 KiB */

/* ---------------------------------------------------------------- little-endian numbers, varints */

static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get_u64(const uint8_t *p)
{
    return (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
}

static void set_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void set_u64(uint8_t *p, uint64_t v)
{
    set_u32(p, (uint32_t)v);
    set_u32(p + 4, (uint32_t)(v >> 32));
}

static size_t put_varint(uint8_t *b, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        b[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b[n++] = (uint8_t)v;
    return n;
}

static uint64_t zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (v < 0 ? UINT64_MAX : 0);
}

static int64_t unzigzag(uint64_t u)
{
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

/* 0 and the value, -1 when the bytes end inside it, -2 when it does not fit in 64 bits. */
static inline int get_varint(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
    const uint8_t *p = *pp;
    if (p < end && *p < 0x80) {
        *v = *p;
        *pp = p + 1;
        return 0;
    }
    uint64_t x = 0;
    for (unsigned shift = 0; p < end; shift += 7) {
        const uint8_t b = *p++;
        if (shift == 63 && b > 1)
            return -2;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            *pp = p;
            return 0;
        }
        if (shift == 63)
            return -2;
    }
    return -1;
}

/* FNV-1a 64 of what a record's meaning depends on: each op's mnemonic and form, each form's fields'
 * names and kinds, in table order.  A binary trace of another table is refused, not misread. */
static uint64_t isa_fingerprint(void)
{
    static uint64_t h;
    if (h)
        return h;
    uint64_t x = 14695981039346656037ull;
#define MIX(byte) (x = (x ^ (uint8_t)(byte)) * 1099511628211ull)
    for (int op = 0; op < DV_OP_COUNT; op++) {
        const dv_op_spec_t *os = dv_op_spec((dv_op_t)op);
        for (const char *c = os->mnemonic; *c; c++)
            MIX(*c);
        MIX(0);
        MIX(os->form);
    }
    for (int f = 0; f < DV_FORM_COUNT; f++) {
        const dv_form_spec_t *fs = dv_form_spec((dv_form_t)f);
        for (int i = 0; i < fs->nfields; i++) {
            for (const char *c = fs->fields[i].name; *c; c++)
                MIX(*c);
            MIX(0);
            MIX(fs->fields[i].kind);
        }
        MIX(0xff);
    }
#undef MIX
    return h = x ? x : 1;
}

/* ---------------------------------------------------------------- writer */

/* A NaN is written as the one NaN the text form reads back ("nan"), so both forms read alike. */
static double canonical_nan(void)
{
    static double nan_value;
    static int ready;
    if (!ready) {
        nan_value = strtod("nan", NULL);
        ready = 1;
    }
    return nan_value;
}

/* The record of insn at `line` after `prev`: its length, or -1 (*bad: the field that cannot be
 * written, -1 for the opcode). */
static int encode_insn(uint8_t *b, const dv_insn_t *in, uint32_t line, uint32_t prev, const dv_kernel_info_t *info,
                       int *bad)
{
    const dv_op_spec_t *os = dv_op_spec((dv_op_t)in->op);
    *bad = -1;
    if (!os)
        return -1;
    const dv_form_spec_t *fs = dv_form_spec(os->form);
    const int64_t delta = (int64_t)line - ((int64_t)prev + 1);
    size_t n = put_varint(b, (uint64_t)in->op << 1 | (delta != 0));
    if (delta)
        n += put_varint(b + n, zigzag(delta));
    for (int i = 0; i < fs->nfields; i++) {
        const dv_val_t v = in->f[i];
        switch (fs->fields[i].kind) {
        case DV_FK_ADDR: {
            const dv_space_t sp = DV_ADDR_SPACE(v.u);
            const unsigned arg = sp == DV_SPACE_GM ? DV_ADDR_ARG(v.u) : 0;
            const uint64_t off = DV_ADDR_OFF(v.u);
            const uint64_t again = sp == DV_SPACE_GM ? DV_GM_ADDR(arg, off) : DV_ADDR(sp, off);
            if ((unsigned)sp >= DV_SPACE_COUNT || again != v.u || (sp == DV_SPACE_GM && arg >= info->nargs)) {
                *bad = i;
                return -1;
            }
            n += put_varint(b + n, (uint64_t)sp | (uint64_t)arg << 8);
            n += put_varint(b + n, off);
            break;
        }
        case DV_FK_INT:
        case DV_FK_BOOL:
            n += put_varint(b + n, zigzag(v.i));
            break;
        case DV_FK_U64:
            n += put_varint(b + n, v.u);
            break;
        case DV_FK_F64: {
            dv_val_t d = v;
            if (isnan(d.d))
                d.d = canonical_nan();
            set_u64(b + n, d.u);
            n += 8;
            break;
        }
        case DV_FK_DTYPE:
        case DV_FK_PIPE:
        case DV_FK_QUANT:
        case DV_FK_CMP:
        case DV_FK_ROUND:
            if (v.i < 0) {
                *bad = i;
                return -1;
            }
            n += put_varint(b + n, (uint64_t)v.i);
            break;
        }
    }
    return (int)n;
}

typedef struct bin_writer {
    FILE *f;
    uint64_t off; /* bytes written so far */
} bin_writer_t;

/* Write failures are not reported here: the stream's error flag is dv_out_close's to locate. */
static void bw_put(bin_writer_t *w, const void *p, size_t n)
{
    fwrite(p, 1, n, w->f);
    w->off += n;
}

/* The canonical text header of info, malloc'ed, *len bytes. */
static int header_text(const dv_kernel_info_t *info, char **text, size_t *len)
{
    *text = NULL;
    FILE *m = open_memstream(text, len);
    if (!m)
        return DV_ERR_NOMEM;
    int rc = dv_trace_write_header(m, info);
    if (fclose(m) != 0 && rc == DV_OK)
        rc = DV_ERR_NOMEM;
    return rc;
}

static int save_binary(dv_kernel_t *k, FILE *f, const char *path, dv_error_t *err)
{
    const dv_kernel_info_t *info = &k->info;
    const uint32_t subs = info->kind == DV_KIND_MIX ? info->subs : 1;
    const size_t nent = (size_t)info->blocks * subs;
    bin_writer_t w = {f, 0};
    char *head = NULL;
    size_t head_len = 0;
    uint8_t *index = NULL, rec[RECORD_MAX], fixed[HEAD_BYTES];
    int rc = header_text(info, &head, &head_len);
    if (rc == DV_ERR_RANGE || subs < 1 || subs > DV_SUB_MAX || head_len > UINT32_MAX) {
        rc = dv_error_set(err, DV_ERR_RANGE, path, 0, 0, "kernel '%s' cannot be written as a trace", info->name);
        goto cleanup;
    }
    if (rc != DV_OK || !(index = calloc(nent, ENTRY_BYTES))) {
        rc = dv_error_set(err, DV_ERR_NOMEM, path, 0, 0, "out of memory");
        goto cleanup;
    }
    memcpy(fixed, MAGIC, 8);
    set_u32(fixed + 8, DV_TRACE_BINARY_VERSION);
    set_u32(fixed + 12, (uint32_t)head_len);
    set_u64(fixed + 16, isa_fingerprint());
    bw_put(&w, fixed, sizeof fixed);
    bw_put(&w, head, head_len);
    /* the line canonical text would give the next line: after the version, kernel and arg lines */
    uint64_t canon = 2 + (uint64_t)info->nargs;
    for (uint32_t b = 0; b < info->blocks && rc == DV_OK; b++)
        for (uint32_t s = 0; s < subs && rc == DV_OK; s++) {
            uint8_t *e = index + ((size_t)b * subs + s) * ENTRY_BYTES;
            const uint64_t start = w.off;
            uint64_t count = 0;
            const uint32_t line0 = (uint32_t)++canon; /* the block line */
            uint32_t prev = line0;
            dv_stream_t *st = NULL;
            dv_insn_t in;
            int got;
            if ((rc = k->open(k, b, s, &st, err)) != DV_OK)
                break;
            while ((got = st->next(st, &in, err)) > 0) {
                const uint32_t line = in.line ? in.line : (uint32_t)(canon + 1);
                int bad, n = encode_insn(rec, &in, line, prev, info, &bad);
                canon++;
                count++;
                if (n < 0) {
                    const dv_op_spec_t *os = dv_op_spec((dv_op_t)in.op);
                    got = dv_error_set(err, DV_ERR_RANGE, path, 0, 0,
                                       "block %u sub %u, instruction %llu: %s%s%s cannot be written in a trace", b, s,
                                       (unsigned long long)count, os ? os->mnemonic : "an invalid opcode",
                                       bad >= 0 ? ": field " : "",
                                       bad >= 0 ? dv_form_spec(os->form)->fields[bad].name : "");
                    break;
                }
                bw_put(&w, rec, (size_t)n);
                prev = line;
            }
            st->close(st);
            if (got < 0) {
                rc = got;
                break;
            }
            set_u64(e, start);
            set_u64(e + 8, w.off - start);
            set_u64(e + 16, count);
            set_u32(e + 24, line0);
        }
    if (rc == DV_OK) {
        uint8_t ih[INDEX_HEAD] = {0}, trailer[TRAILER_BYTES];
        const uint64_t index_off = w.off;
        set_u32(ih, subs);
        bw_put(&w, ih, sizeof ih);
        bw_put(&w, index, nent * ENTRY_BYTES);
        set_u64(trailer, index_off);
        memcpy(trailer + 8, END_MAGIC, 8);
        bw_put(&w, trailer, sizeof trailer);
    }
cleanup:
    free(head);
    free(index);
    return rc;
}

/* Write failures are not reported here: the stream's error flag is dv_out_close's to locate. */
static int save_text(dv_kernel_t *k, FILE *f, const char *path, dv_error_t *err)
{
    const dv_kernel_info_t *info = &k->info;
    const uint32_t subs = info->kind == DV_KIND_MIX ? info->subs : 1;
    if (dv_trace_write_header(f, info) == DV_ERR_RANGE)
        return dv_error_set(err, DV_ERR_RANGE, path, 0, 0, "kernel '%s' cannot be written as a trace", info->name);
    for (uint32_t b = 0; b < info->blocks; b++)
        for (uint32_t s = 0; s < subs; s++) {
            dv_stream_t *st = NULL;
            dv_insn_t in;
            int got, rc;
            if ((rc = k->open(k, b, s, &st, err)) != DV_OK)
                return rc;
            if (dv_trace_write_block(f, info, b, s) == DV_ERR_RANGE) {
                st->close(st);
                return dv_error_set(err, DV_ERR_RANGE, path, 0, 0, "block %u sub %u cannot be written", b, s);
            }
            uint64_t count = 0;
            while ((got = st->next(st, &in, err)) > 0)
                if (++count, dv_trace_write_insn(f, info, &in) == DV_ERR_RANGE) {
                    const dv_op_spec_t *os = dv_op_spec((dv_op_t)in.op);
                    got = dv_error_set(err, DV_ERR_RANGE, path, 0, 0,
                                       "block %u sub %u, instruction %llu: %s cannot be written in a trace", b, s,
                                       (unsigned long long)count, os ? os->mnemonic : "an invalid opcode");
                    break;
                }
            st->close(st);
            if (got < 0)
                return got;
        }
    dv_trace_write_end(f);
    return DV_OK;
}

int dv_trace_save(dv_kernel_t *k, const char *path, dv_trace_form_t form, dv_error_t *err)
{
    dv_out_t o;
    int rc = dv_out_open(&o, path, form == DV_TRACE_BINARY ? "the binary trace" : "the trace", err);
    if (rc != DV_OK)
        return rc;
    rc = form == DV_TRACE_BINARY ? save_binary(k, o.f, path, err) : save_text(k, o.f, path, err);
    return dv_out_close(&o, rc, err);
}

/* ---------------------------------------------------------------- reader */

typedef struct bin_kernel {
    dv_kernel_t k;
    char *source;
    const uint8_t *data; /* the mapped file, or a malloc'ed copy */
    size_t size;
    bool mapped;
    const uint8_t *index; /* blocks * subs entries */
    int kind_line, kind_col;
    unsigned refs;
} bin_kernel_t;

static int bin_stream_open(dv_kernel_t *k, uint32_t block, uint32_t sub, dv_stream_t **out, dv_error_t *err);

/* A record of a form of many fields that the quick pass decoded, kept by its bytes (bin_stream_t.seen).
 * The decode is a function of a record's bytes alone (each is read in turn, and the bytes read decide
 * where the record ends), of the kernel's arguments and the instruction tables, and for a record with
 * a line step of the line before it; so a record without one whose first len bytes are a kept
 * record's is that record: the kept instruction at the next line, checked as it was.  A kernel's
 * loop repeats its vector ops byte for byte (a DMA's offsets change), so each of those is decoded
 * once, not once per iteration.  (Short records decode in about the time a look-up takes.) */
enum { SEEN_SLOTS = 32, SEEN_BYTES = 32 };
#define SEEN_MIN_FIELDS 8 /* the forms kept: those of this many fields or more */
typedef struct bin_seen {
    _Alignas(16) uint8_t key[SEEN_BYTES]; /* the record's bytes (those past len: any) */
    uint64_t kmask;                       /* bit i: byte i is the record's (empty: bit 63 only, no match) */
    uint32_t len;
    dv_insn_t insn;
} bin_seen_t;

typedef struct bin_stream {
    dv_stream_t s;
    bin_kernel_t *bk;
    const uint8_t *p, *end, *released; /* next byte, end of the stream, pages before `released` handed back */
    uintptr_t release_at;              /* the next release, when p gets there (never for a copy) */
    const uint8_t *fast_end;           /* records that start before it have RECORD_MAX bytes after them */
    uint64_t left, count;              /* records left, records in all */
    uint32_t line;                     /* line of the last record (the block's before the first) */
    uint32_t block, sub;
    bool done;
    bin_seen_t seen[SEEN_SLOTS]; /* by a hash of a record's first eight bytes (seen_slot) */
} bin_stream_t;

static void bin_unref(bin_kernel_t *bk)
{
    if (--bk->refs)
        return;
    if (bk->mapped)
        munmap((void *)bk->data, bk->size);
    else
        free((void *)bk->data);
    free(bk->k.info.args);
    free(bk->source);
    free(bk);
}

bool dv_trace_binary_close(dv_kernel_t *k)
{
    if (k->open != bin_stream_open)
        return false;
    bin_unref(k->impl);
    return true;
}

bool dv_trace_binary_kind_at(const dv_kernel_t *k, where_t *w, int *col)
{
    if (k->open != bin_stream_open)
        return false;
    const bin_kernel_t *bk = k->impl;
    w->file = bk->source;
    w->line = bk->kind_line;
    *col = bk->kind_col;
    return true;
}

/* "block B" or "block B aicN": for messages. */
static const char *stream_name(const bin_stream_t *bs, char *buf, size_t cap)
{
    char sub[16] = "";
    if (bs->bk->k.info.kind == DV_KIND_MIX)
        dv_topo_sub_name(bs->sub, sub, sizeof sub);
    snprintf(buf, cap, "block %u%s%s", bs->block, *sub ? " " : "", sub);
    return buf;
}

/* An error at the record being read, which ends the stream: "block B[ SUB], record R (byte OFF): msg". */
#define RECORD_ERROR(bs, err, code, at, ...)                                                                          \
    do {                                                                                                              \
        char name_[32], msg_[640];                                                                                    \
        snprintf(msg_, sizeof msg_, __VA_ARGS__);                                                                     \
        dv_error_set(err, code, (bs)->bk->source, 0, 0, "%s, record %llu (byte %llu): %s",                           \
                     stream_name(bs, name_, sizeof name_), (unsigned long long)((bs)->count - (bs)->left + 1),        \
                     (unsigned long long)((at) - (bs)->bk->data), msg_);                                              \
        (bs)->done = true;                                                                                            \
        return code;                                                                                                  \
    } while (0)

/* ---------------------------------------------------------------- the quick pass */

/* The quick pass reads each field by its kind, in a decoder generated from fields.def (fast_record):
 * an unsigned varint (U64, and the DTYPE, PIPE, QUANT, CMP and ROUND kinds), a zigzag varint (INT,
 * BOOL), 8 bytes (F64) or an address (two varints); and it checks each as dv_insn_check does, with the
 * same row's min and max (the ranges of dv_insn_rules_t), the address space and dtype set of the op's
 * isa.def row; an op with rules across fields (dv_insn_rules_t's cross) then goes through
 * dv_insn_check. */

/* get_varint of two bytes or more where the bytes cannot end inside it: the value and the byte after
 * it (p NULL when it does not fit in 64 bits), returned in two registers; unrolled, so a byte costs a
 * few instructions, not a loop's turn. */
typedef struct fast_varint {
    const uint8_t *p;
    uint64_t v;
} fast_varint_t;
static __attribute__((noinline)) fast_varint_t fast_varint_long(const uint8_t *p)
{
    uint64_t x = p[0] & 0x7f, b;
#define BYTE(k)                                                                                                       \
    b = p[k];                                                                                                         \
    x |= (b & 0x7f) << (7 * k);                                                                                       \
    if (b < 0x80)                                                                                                     \
        return (fast_varint_t){p + k + 1, x};
    BYTE(1) BYTE(2) BYTE(3) BYTE(4) BYTE(5) BYTE(6) BYTE(7) BYTE(8)
#undef BYTE
    if (p[9] > 1) /* the tenth byte holds bit 63 only */
        return (fast_varint_t){NULL, 0};
    return (fast_varint_t){p + 10, x | (uint64_t)p[9] << 63};
}

/* The varint at p into the lvalue `to`, p past it; a varint too long for 64 bits returns false from
 * the function that uses it (one byte, the common case, inline). */
#define FAST_VARINT(to)                                                                                              \
    do {                                                                                                              \
        if (*p < 0x80) {                                                                                              \
            (to) = *p++;                                                                                              \
        } else {                                                                                                      \
            const fast_varint_t l_ = fast_varint_long(p);                                                            \
            if (!l_.p)                                                                                                \
                return false;                                                                                         \
            (to) = l_.v;                                                                                              \
            p = l_.p;                                                                                                 \
        }                                                                                                             \
    } while (0)

/* The spaces of fields.def's space column: a fixed space, or the op's dst / src column (DST, SRC). */
enum {
    FB_SPACE_NA = -1, FB_SPACE_DST = -2, FB_SPACE_SRC = -3, FB_SPACE_GM = DV_SPACE_GM, FB_SPACE_UB = DV_SPACE_UB,
    FB_SPACE_L1 = DV_SPACE_L1, FB_SPACE_L0A = DV_SPACE_L0A, FB_SPACE_L0B = DV_SPACE_L0B, FB_SPACE_L0C = DV_SPACE_L0C,
    FB_SPACE_BT = DV_SPACE_BT, FB_SPACE_FB = DV_SPACE_FB
};

/* fast_<FORM>(&p, f, info, dst, src, dtypes, &nf): decode and check the fields of a record of that
 * form (p at its first field) for an op whose isa.def columns are dst, src and dtypes, constants
 * where fast_record calls it (a case per op): true, f[0, nf) and p past the record; false leaves the
 * record to the careful pass. */
/* an address: a varint of space and argument, then one of the offset within them; the space must be
 * the field's (GM: an argument the kernel has, an offset inside it; another: argument 0, 40 bits) */
#define FAST_ADDR(n, space, min, max)                                                                                 \
    {                                                                                                                 \
        const int sp_ = FB_SPACE_##space == FB_SPACE_DST ? dst_ : FB_SPACE_##space == FB_SPACE_SRC ? src_            \
                                                                                                : FB_SPACE_##space;  \
        FAST_VARINT(v);                                                                                               \
        FAST_VARINT(off);                                                                                             \
        if (sp_ == DV_SPACE_GM) {                                                                                     \
            if ((v & 0xff) != DV_SPACE_GM || v >> 8 >= info->nargs || off >= info->args[v >> 8].bytes)               \
                return false;                                                                                         \
            f[n].u = DV_GM_ADDR(v >> 8, off);                                                                         \
        } else {                                                                                                      \
            if (v != (uint64_t)sp_ || off >= OFF_LIMIT)                                                               \
                return false;                                                                                         \
            f[n].u = DV_ADDR(sp_, off);                                                                               \
        }                                                                                                             \
    }
/* the other kinds: the unsigned range [min, max] of their row, as dv_insn_check has it */
#define IN_RANGE(n, min, max) if (f[n].u - (uint64_t)(min) > (uint64_t)(max) - (uint64_t)(min)) return false;
/* a zigzag varint: z = 2v for v >= 0, so with min >= 0 the range check is one on z - 2 min rotated
 * right by one (an odd z, a negative v, lands far out of range) */
#define FAST_INT(n, space, min, max)                                                                                  \
    FAST_VARINT(v);                                                                                                   \
    if ((min) >= 0) {                                                                                                 \
        v -= 2 * (uint64_t)(min);                                                                                     \
        v = v >> 1 | v << 63;                                                                                         \
        if (v > (uint64_t)(max) - (uint64_t)(min))                                                                    \
            return false;                                                                                             \
        f[n].u = v + (uint64_t)(min);                                                                                 \
    } else {                                                                                                          \
        f[n].i = unzigzag(v);                                                                                         \
        IN_RANGE(n, min, max)                                                                                         \
    }
#define FAST_BOOL FAST_INT
#define FAST_F64(n, space, min, max) f[n].u = get_u64(p); p += 8;
#define FAST_U64(n, space, min, max) FAST_VARINT(f[n].u);
/* a dtype: an index of the table in the op's dtype set (when it has one) */
#define FAST_DTYPE(n, space, min, max)                                                                                \
    FAST_VARINT(f[n].u);                                                                                              \
    if (f[n].u >= DV_DT_COUNT || (dtypes_ && !(dtypes_ >> f[n].u & 1)))                                              \
        return false;
/* (the careful pass checks these kinds as unsigned values in [min, max]: the same when min >= 0) */
#define RANGED(n, space, min, max) FAST_VARINT(f[n].u); _Static_assert((min) >= 0, "unsigned range"); IN_RANGE(n, min, max)
#define FAST_PIPE RANGED
#define FAST_QUANT RANGED
#define FAST_CMP RANGED
#define FAST_ROUND RANGED
#define FAST_HEAD(name)                                                                                               \
    static inline __attribute__((always_inline)) bool name(const uint8_t **pp, dv_val_t *f,                         \
                                                           const dv_kernel_info_t *info, int dst_, int src_,        \
                                                           uint32_t dtypes_, unsigned *nfp)                         \
    {                                                                                                                 \
        const uint8_t *p = *pp;                                                                                       \
        uint64_t v = 0, off = 0;                                                                                      \
        unsigned nf_ = 0;                                                                                             \
        (void)f, (void)info, (void)dst_, (void)src_, (void)dtypes_, (void)v, (void)off;
/* (the fields past nf_ are not written: they are not part of an instruction, dv_insn_copy, and the
 * text reader hands its instructions out without them too) */
#define FAST_TAIL                                                                                                     \
        *pp = p;                                                                                                      \
        *nfp = nf_;                                                                                                   \
        return true;                                                                                                  \
    }
__attribute__((unused)) FAST_HEAD(fast_none_) /* (opens the list: the first form closes it, none calls it) */
#define DV_FORM(form, desc) FAST_TAIL FAST_HEAD(fast_##form)
#define DV_FIELD(form, name, kind, space, min, max, def) FAST_##kind(DV_FLD(form, name), space, min, max) nf_++;
#include "fields.def"
FAST_TAIL
#undef FAST_HEAD
#undef FAST_TAIL
#undef IN_RANGE
#undef RANGED
#undef FAST_ADDR
#undef FAST_INT
#undef FAST_BOOL
#undef FAST_F64
#undef FAST_U64
#undef FAST_DTYPE
#undef FAST_PIPE
#undef FAST_QUANT
#undef FAST_CMP
#undef FAST_ROUND

/* Each form's field count, a constant (FORM_NF_<FORM>: its DV_FIELD rows in fields.def). */
enum {
    FORM_NF_none_ = 0
#define DV_FORM(form, desc) , FORM_NF_##form = 0
#define DV_FIELD(form, name, kind, space, min, max, def) + 1
#include "fields.def"
};

/* The slot of the record at p in bin_stream_t.seen: a hash of its first eight bytes (a kept record
 * has more). */
static inline bin_seen_t *seen_slot(bin_seen_t *seen, const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return &seen[(w * 0x9E3779B97F4A7C15ull) >> 59];
}
_Static_assert(SEEN_SLOTS == 1 << (64 - 59), "seen_slot's shift");
_Static_assert(SEEN_MIN_FIELDS >= 8 && SEEN_BYTES <= 63, "a kept record has eight bytes or more; kmask");

/* Are the bytes at p (SEEN_BYTES readable) the record kept in e? */
static inline bool seen_is(const bin_seen_t *e, const uint8_t *p)
{
#if defined(__SSE2__)
    const __m128i k0 = _mm_load_si128((const __m128i *)(const void *)e->key);
    const __m128i k1 = _mm_load_si128((const __m128i *)(const void *)(e->key + 16));
    const uint64_t eq =
        (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)p), k0)) |
        (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + 16)), k1))
            << 16;
    return (~eq & e->kmask) == 0;
#else
    return !(e->kmask >> 63) && memcmp(p, e->key, e->len) == 0;
#endif
}

/* Keep the record [p, q) (SEEN_BYTES readable at p), decoded into in, when it fits. */
static inline void seen_keep(bin_seen_t *seen, const uint8_t *p, const uint8_t *q, const dv_insn_t *in)
{
    const size_t len = (size_t)(q - p);
    if (len > SEEN_BYTES)
        return;
    bin_seen_t *const e = seen_slot(seen, p);
    memcpy(e->key, p, SEEN_BYTES);
    e->kmask = (1ull << len) - 1;
    e->len = (uint32_t)len;
    dv_insn_copy(&e->insn, in);
}

/* Decode and check the record at *pp, which has RECORD_MAX bytes after it: true (out filled, *pp
 * past the record) when it is well-formed and passes everything the careful pass would check; false,
 * with out and *pp in any state, leaves the record to the careful pass.  A case per op (isa.def), its
 * form's fields decoded by fast_<FORM> with the op's spaces and dtype set as constants: no look-up
 * in the rules and op tables per record or field. */
static inline __attribute__((always_inline)) bool fast_record(bin_stream_t *bs, dv_insn_t *out, const uint8_t **pp)
{
    const uint8_t *p = *pp;
    uint64_t v;
    FAST_VARINT(v);
    const uint64_t op = v >> 1;
    uint64_t line = (uint64_t)bs->line + 1;
    if (v & 1) {
        FAST_VARINT(v);
        const int64_t d = unzigzag(v);
        if (d < -(int64_t)line + 1 || d > (int64_t)(UINT32_MAX - line))
            return false;
        line = (uint64_t)((int64_t)line + d);
    }
    const dv_kernel_info_t *info = &bs->bk->k.info;
    unsigned nf;
    switch (op) {
#define DV_INSN(mn, pipe, form, cost, dst, src, dtypes, desc)                                                        \
    case DV_OP_##mn:                                                                                                  \
        if (FORM_NF_##form >= SEEN_MIN_FIELDS && !(**pp & 1)) { /* a record kept (bit 0: a line step): bin_seen_t */ \
            const bin_seen_t *const e_ = seen_slot(bs->seen, *pp);                                                    \
            if (seen_is(e_, *pp)) {                                                                                   \
                dv_insn_copy(out, &e_->insn);                                                                         \
                out->line = (uint32_t)line;                                                                           \
                *pp += e_->len;                                                                                       \
                return true;                                                                                          \
            }                                                                                                         \
        }                                                                                                             \
        if (!fast_##form(&p, out->f, info, DV_SPACE_##dst, DV_SPACE_##src, dtypes, &nf))                             \
            return false;                                                                                             \
        out->op = DV_OP_##mn;                                                                                         \
        out->nf = (uint16_t)nf;                                                                                       \
        out->line = (uint32_t)line;                                                                                   \
        if (dv_insn_rules(DV_OP_##mn)->cross && dv_insn_check(out, NULL) != DV_OK) /* its rules across fields */     \
            return false;                                                                                             \
        if (FORM_NF_##form >= SEEN_MIN_FIELDS && !(**pp & 1))                                                         \
            seen_keep(bs->seen, *pp, p, out);                                                                         \
        break;
#include "isa.def"
    default: /* not an op of the table */
        return false;
    }
    *pp = p;
    return true;
}
#undef FAST_VARINT

/* ---------------------------------------------------------------- the careful pass */

/* The record before p, at `line`, was read into the stream's caller: step past it. */
static inline int record_read(bin_stream_t *bs, const uint8_t *p, uint32_t line)
{
    bs->p = p;
    bs->line = line;
    bs->left--;
    if ((uintptr_t)p >= bs->release_at) {
        /* the pages behind the stream are read again from the file if another stream needs them */
        const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
        const uintptr_t lo = ((uintptr_t)bs->released + page - 1) & ~(page - 1), hi = (uintptr_t)p & ~(page - 1);
        if (hi > lo)
            madvise((void *)lo, hi - lo, MADV_DONTNEED);
        bs->released = p;
        bs->release_at = (uintptr_t)p + RELEASE_BYTES;
    }
    return 1;
}

/* The record at bs->p read the careful way: decoded and checked step by step, each fault a located
 * error that ends the stream. */
static __attribute__((noinline)) int careful_next(bin_stream_t *bs, dv_insn_t *out, dv_error_t *err)
{
    if (bs->done)
        return 0;
    const uint8_t *p = bs->p, *const start = p, *const end = bs->end;
    if (bs->left == 0) {
        bs->done = true;
        if (p != end)
            RECORD_ERROR(bs, err, DV_ERR_PARSE, p, "%llu bytes after the last of the stream's %llu records",
                         (unsigned long long)(end - p), (unsigned long long)bs->count);
        return 0;
    }
    uint64_t v;
    int vr;
#define VARINT(what)                                                                                                  \
    do {                                                                                                              \
        if ((vr = get_varint(&p, end, &v)) != 0) {                                                                    \
            if (vr == -1)                                                                                             \
                RECORD_ERROR(bs, err, DV_ERR_PARSE, start, "%s: the varint runs past the end of the stream (byte %llu)", \
                             what, (unsigned long long)(end - bs->bk->data));                                        \
            RECORD_ERROR(bs, err, DV_ERR_PARSE, start, "%s: the varint does not fit in 64 bits", what);              \
        }                                                                                                             \
    } while (0)
    VARINT("opcode");
    const uint64_t op = v >> 1;
    if (op >= DV_OP_COUNT)
        RECORD_ERROR(bs, err, DV_ERR_PARSE, start, "bad opcode index %llu (the ISA has %d instructions)",
                     (unsigned long long)op, (int)DV_OP_COUNT);
    uint64_t line = (uint64_t)bs->line + 1;
    if (v & 1) {
        VARINT("line");
        const int64_t d = unzigzag(v);
        if (d < -(int64_t)line + 1 || d > (int64_t)(UINT32_MAX - line))
            RECORD_ERROR(bs, err, DV_ERR_RANGE, start, "line %llu%+lld is out of range [1, %u]", (unsigned long long)line,
                         (long long)d, UINT32_MAX);
        line = (uint64_t)((int64_t)line + d);
    }
    const dv_op_spec_t *os = dv_op_spec((dv_op_t)op);
    const dv_form_spec_t *fs = dv_form_spec(os->form);
    const dv_kernel_info_t *info = &bs->bk->k.info;
    out->op = (uint16_t)op;
    out->nf = (uint16_t)fs->nfields;
    out->line = (uint32_t)line;
    for (int i = 0; i < fs->nfields; i++) {
        const dv_field_spec_t *fd = &fs->fields[i];
        dv_val_t *f = &out->f[i];
        switch (fd->kind) {
        case DV_FK_ADDR: {
            VARINT(fd->name);
            const uint64_t sa = v;
            VARINT(fd->name);
            const uint64_t sp = sa & 0xff, arg = sa >> 8;
            if (sp >= DV_SPACE_COUNT)
                RECORD_ERROR(bs, err, DV_ERR_RANGE, start, "%s: field '%s': address space %llu is out of range [0, %d]",
                             os->mnemonic, fd->name, (unsigned long long)sp, DV_SPACE_COUNT - 1);
            if (sp == DV_SPACE_GM) {
                if (arg >= info->nargs)
                    RECORD_ERROR(bs, err, DV_ERR_RANGE, start,
                                 "%s: field '%s': GM argument %llu is out of range (the kernel has %u)", os->mnemonic,
                                 fd->name, (unsigned long long)arg, info->nargs);
                if (v >= info->args[arg].bytes)
                    RECORD_ERROR(bs, err, DV_ERR_RANGE, start,
                                 "%s: field '%s': GM offset %llu must be less than the size of argument '%s' (%llu "
                                 "bytes)", os->mnemonic, fd->name, (unsigned long long)v, info->args[arg].name,
                                 (unsigned long long)info->args[arg].bytes);
                f->u = DV_GM_ADDR(arg, v);
            } else {
                if (arg != 0 || v >= OFF_LIMIT)
                    RECORD_ERROR(bs, err, DV_ERR_RANGE, start, "%s: field '%s': %s address %#llx:%#llx does not fit",
                                 os->mnemonic, fd->name, dv_space_name((dv_space_t)sp), (unsigned long long)arg,
                                 (unsigned long long)v);
                f->u = DV_ADDR(sp, v);
            }
            break;
        }
        case DV_FK_INT:
        case DV_FK_BOOL:
            VARINT(fd->name);
            f->i = unzigzag(v);
            break;
        case DV_FK_U64:
            VARINT(fd->name);
            f->u = v;
            break;
        case DV_FK_F64:
            if (end - p < 8)
                RECORD_ERROR(bs, err, DV_ERR_PARSE, start, "%s: the double runs past the end of the stream (byte %llu)",
                             fd->name, (unsigned long long)(end - bs->bk->data));
            f->u = get_u64(p);
            p += 8;
            break;
        case DV_FK_DTYPE:
            VARINT(fd->name);
            if (v >= DV_DT_COUNT)
                RECORD_ERROR(bs, err, DV_ERR_RANGE, start, "%s: field '%s': dtype %llu is out of range [0, %d]",
                             os->mnemonic, fd->name, (unsigned long long)v, DV_DT_COUNT - 1);
            f->i = (int64_t)v;
            break;
        case DV_FK_PIPE:
        case DV_FK_QUANT:
        case DV_FK_CMP:
        case DV_FK_ROUND:
            VARINT(fd->name);
            if (v < (uint64_t)fd->min || v > (uint64_t)fd->max)
                RECORD_ERROR(bs, err, DV_ERR_RANGE, start, "%s: field '%s' = %llu is out of range [%lld, %lld]",
                             os->mnemonic, fd->name, (unsigned long long)v, (long long)fd->min, (long long)fd->max);
            f->i = (int64_t)v;
            break;
        }
    }
#undef VARINT
    for (int i = fs->nfields; i < DV_MAX_FIELDS; i++) /* as dv_insn_init leaves them */
        out->f[i].u = 0;
    dv_error_t e;
    if (dv_insn_check(out, &e) != DV_OK)
        RECORD_ERROR(bs, err, e.code, start, "%.600s", e.msg);
    return record_read(bs, p, out->line);
}

static int bin_stream_next(dv_stream_t *s, dv_insn_t *out, dv_error_t *err)
{
    bin_stream_t *bs = (bin_stream_t *)s;
    const uint8_t *p = bs->p;
    if (!bs->done && bs->left && p < bs->fast_end && fast_record(bs, out, &p))
        return record_read(bs, p, out->line);
    return careful_next(bs, out, err);
}

static void bin_stream_close(dv_stream_t *s)
{
    bin_stream_t *bs = (bin_stream_t *)s;
    if (!bs)
        return;
    bin_unref(bs->bk);
    free(bs);
}

static int bin_stream_open(dv_kernel_t *k, uint32_t block, uint32_t sub, dv_stream_t **out, dv_error_t *err)
{
    bin_kernel_t *bk = k->impl;
    *out = NULL;
    if (block >= k->info.blocks || sub >= k->info.subs)
        return dv_error_set(err, DV_ERR_RANGE, bk->source, 0, 0, "no stream for block %u sub %u (blocks=%u, subs=%u)",
                            block, sub, k->info.blocks, k->info.subs);
    const uint8_t *e = bk->index + ((size_t)block * k->info.subs + sub) * ENTRY_BYTES;
    bin_stream_t *bs = malloc(sizeof *bs); /* (zeroed up to its kept records, which are made empty below:
                                              * their instructions need no clearing) */
    if (!bs)
        return dv_error_set(err, DV_ERR_NOMEM, bk->source, 0, 0, "out of memory");
    memset(bs, 0, offsetof(bin_stream_t, seen));
    bs->bk = bk;
    bk->refs++;
    for (int i = 0; i < SEEN_SLOTS; i++) { /* (no record matches an empty slot) */
        memset(bs->seen[i].key, 0, SEEN_BYTES);
        bs->seen[i].kmask = 1ull << 63;
    }
    bs->p = bs->released = bk->data + get_u64(e); /* checked by bin_parse */
    bs->end = bs->p + get_u64(e + 8);
    bs->release_at = bk->mapped ? (uintptr_t)bs->p + RELEASE_BYTES : UINTPTR_MAX;
    bs->fast_end = bs->end - bs->p > RECORD_MAX ? bs->end - RECORD_MAX : bs->p;
    bs->left = bs->count = get_u64(e + 16);
    bs->line = get_u32(e + 24);
    bs->block = block;
    bs->sub = sub;
    bs->s.next = bin_stream_next;
    bs->s.close = bin_stream_close;
    bs->s.source = bk->source;
    *out = &bs->s;
    return DV_OK;
}

#define FILE_ERROR(bk, err, code, at, ...)                                                                            \
    do {                                                                                                              \
        char msg_[640];                                                                                               \
        snprintf(msg_, sizeof msg_, __VA_ARGS__);                                                                     \
        return dv_error_set(err, code, (bk)->source, 0, 0, "byte %llu: %s", (unsigned long long)(at), msg_);         \
    } while (0)

/* Check the magic, the version, the header, the trailer and the whole index; fill bk->k.info. */
static int bin_parse(bin_kernel_t *bk, dv_error_t *err)
{
    const uint8_t *d = bk->data;
    const size_t size = bk->size;
    size_t i = 0;
    while (i < size && i < 8 && d[i] == MAGIC[i])
        i++;
    if (i < 8 && i == size)
        FILE_ERROR(bk, err, DV_ERR_PARSE, size, "truncated binary trace: the file ends inside the magic");
    if (i < 8)
        FILE_ERROR(bk, err, DV_ERR_PARSE, i, "bad magic: not a dvsim binary trace (expected 89 44 56 54 42 0d 0a 1a)");
    if (size < HEAD_BYTES)
        FILE_ERROR(bk, err, DV_ERR_PARSE, size, "truncated binary trace: %zu bytes, shorter than its %d-byte head", size,
                   HEAD_BYTES);
    const uint32_t version = get_u32(d + 8);
    if (version != DV_TRACE_BINARY_VERSION)
        FILE_ERROR(bk, err, DV_ERR_UNSUPPORTED, 8, "unsupported binary trace version %u (this reader reads version %d)",
                   version, DV_TRACE_BINARY_VERSION);
    const uint64_t head_len = get_u32(d + 12);
    if (get_u64(d + 16) != isa_fingerprint())
        FILE_ERROR(bk, err, DV_ERR_UNSUPPORTED, 16,
                   "the trace was written for another instruction table (fingerprint %016llx, this build's %016llx): "
                   "write it again from text (dvsim convert)", (unsigned long long)get_u64(d + 16),
                   (unsigned long long)isa_fingerprint());
    if (size < TRAILER_BYTES + HEAD_BYTES || memcmp(d + size - 8, END_MAGIC, 8) != 0)
        FILE_ERROR(bk, err, DV_ERR_PARSE, size,
                   "truncated binary trace: the file does not end with the trailer (44 56 54 42 45 4e 44 0a)");
    const uint64_t data_start = HEAD_BYTES + head_len, index_off = get_u64(d + size - TRAILER_BYTES);
    const uint64_t index_room = size - TRAILER_BYTES;
    if (data_start > index_room)
        FILE_ERROR(bk, err, DV_ERR_PARSE, 12, "the header's length %llu runs past the end of the file (%zu bytes)",
                   (unsigned long long)head_len, size);
    int rc = dv_trace_header_parse((const char *)d + HEAD_BYTES, (size_t)head_len, bk->source, &bk->k.info,
                                   &bk->kind_line, &bk->kind_col, err);
    if (rc != DV_OK)
        return rc;
    dv_kernel_info_t *info = &bk->k.info;
    if (index_off < data_start || index_off > index_room || index_room - index_off < INDEX_HEAD)
        FILE_ERROR(bk, err, DV_ERR_RANGE, size - TRAILER_BYTES,
                   "the stream index's offset %llu is out of range [%llu, %llu]", (unsigned long long)index_off,
                   (unsigned long long)data_start, (unsigned long long)(index_room - INDEX_HEAD));
    const uint32_t subs = get_u32(d + index_off);
    const uint32_t subs_max = info->kind == DV_KIND_MIX ? DV_SUB_MAX : 1;
    if (subs < 1 || subs > subs_max)
        FILE_ERROR(bk, err, DV_ERR_RANGE, index_off, "%u streams per block is out of range [1, %u] for a kind=%s kernel",
                   subs, subs_max, dv_trace_kind_names[info->kind]);
    if (get_u32(d + index_off + 4) != 0)
        FILE_ERROR(bk, err, DV_ERR_PARSE, index_off + 4, "the index's reserved word is not 0");
    info->subs = subs;
    const uint64_t nent = (uint64_t)info->blocks * subs;
    if (index_room - index_off - INDEX_HEAD != nent * ENTRY_BYTES)
        FILE_ERROR(bk, err, DV_ERR_PARSE, index_off,
                   "the stream index has %llu bytes; %u blocks x %u streams need %llu",
                   (unsigned long long)(index_room - index_off - INDEX_HEAD), info->blocks, subs,
                   (unsigned long long)(nent * ENTRY_BYTES));
    bk->index = d + index_off + INDEX_HEAD;
    for (uint64_t n = 0; n < nent; n++) {
        const uint8_t *e = bk->index + n * ENTRY_BYTES;
        const uint64_t at = index_off + INDEX_HEAD + n * ENTRY_BYTES;
        const uint64_t off = get_u64(e), bytes = get_u64(e + 8), count = get_u64(e + 16);
        const uint32_t b = (uint32_t)(n / subs), s = (uint32_t)(n % subs);
        if (off < data_start || off > index_off)
            FILE_ERROR(bk, err, DV_ERR_RANGE, at,
                       "block %u sub %u: stream offset %llu is outside the stream data [%llu, %llu]", b, s,
                       (unsigned long long)off, (unsigned long long)data_start, (unsigned long long)index_off);
        if (bytes > index_off - off)
            FILE_ERROR(bk, err, DV_ERR_RANGE, at + 8,
                       "block %u sub %u: the stream's %llu bytes from offset %llu run past the stream data (%llu)", b,
                       s, (unsigned long long)bytes, (unsigned long long)off, (unsigned long long)index_off);
        if (count > bytes)
            FILE_ERROR(bk, err, DV_ERR_RANGE, at + 16, "block %u sub %u: %llu records cannot fit in %llu bytes", b, s,
                       (unsigned long long)count, (unsigned long long)bytes);
        if (get_u32(e + 28) != 0)
            FILE_ERROR(bk, err, DV_ERR_PARSE, at + 28, "block %u sub %u: the entry's reserved word is not 0", b, s);
    }
    return DV_OK;
}

static bin_kernel_t *bin_new(const char *source)
{
    bin_kernel_t *bk = calloc(1, sizeof *bk);
    if (!bk || !(bk->source = malloc(strlen(source) + 1))) {
        free(bk);
        return NULL;
    }
    strcpy(bk->source, source);
    bk->refs = 1;
    bk->k.open = bin_stream_open;
    bk->k.impl = bk;
    return bk;
}

static int bin_finish(bin_kernel_t *bk, dv_kernel_t **out, dv_error_t *err)
{
    int rc = bin_parse(bk, err);
    if (rc != DV_OK) {
        bin_unref(bk);
        return rc;
    }
    *out = &bk->k;
    return DV_OK;
}

int dv_trace_binary_open_file(FILE *fp, const char *path, dv_kernel_t **out, dv_error_t *err)
{
    struct stat st;
    *out = NULL;
    dv_trace_names_init();
    bin_kernel_t *bk = bin_new(path);
    if (!bk)
        return dv_error_set(err, DV_ERR_NOMEM, path, 0, 0, "out of memory");
    if (fstat(fileno(fp), &st) != 0) {
        bin_unref(bk);
        return dv_error_set(err, DV_ERR_IO, path, 0, 0, "cannot read: %s", strerror(errno));
    }
    bk->size = (size_t)st.st_size;
    void *m = bk->size ? mmap(NULL, bk->size, PROT_READ, MAP_PRIVATE, fileno(fp), 0) : MAP_FAILED;
    if (m == MAP_FAILED) {
        const int e = errno;
        bin_unref(bk);
        return dv_error_set(err, DV_ERR_IO, path, 0, 0, "cannot map the binary trace: %s", strerror(e));
    }
    bk->data = m;
    bk->mapped = true;
    return bin_finish(bk, out, err);
}

int dv_trace_binary_open_bytes(const void *data, size_t len, const char *name, dv_kernel_t **out, dv_error_t *err)
{
    *out = NULL;
    dv_trace_names_init();
    bin_kernel_t *bk = bin_new(name);
    uint8_t *copy = malloc(len ? len : 1);
    if (!bk || !copy) {
        free(copy);
        if (bk)
            bin_unref(bk);
        return dv_error_set(err, DV_ERR_NOMEM, name, 0, 0, "out of memory");
    }
    memcpy(copy, data, len);
    bk->data = copy;
    bk->size = len;
    return bin_finish(bk, out, err);
}
