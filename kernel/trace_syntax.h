/* kernel/trace_syntax.h - private to the trace reader and writer (kernel/trace_*.c): the format's
 * limits, its tokens, numbers and names, and one instruction line (kernel/trace_syntax.c). */
#ifndef DV_TRACE_SYNTAX_H
#define DV_TRACE_SYNTAX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dv/trace.h"

#define BLOCKS_MAX 65535u
#define ARGS_MAX 65536u                  /* the GM argument index has 16 bits */
#define OFF_LIMIT (1ull << 40)           /* offsets have 40 bits (DV_ADDR) */
#define QUOTE_MAX 64                     /* longest token echoed in a message */

/* The names of dv_arg_dir_t and dv_kind_t values in a trace, indexed by value. */
extern const char *const dv_trace_dir_names[3];
/* arg l2= values, indexed by dv_l2_mode_t */
extern const char *const dv_trace_l2_names[2];
extern const char *const dv_trace_kind_names[3];

/* ---------------------------------------------------------------- tokens */

typedef struct tok {
    const char *s;
    size_t n;
} tok_t;

/* printf arguments quoting a token: "'%.*s'" */
#define TOKQ(t) (int)((t).n > QUOTE_MAX ? QUOTE_MAX : (t).n), (t).s

/* Per byte: 1 for the blanks between tokens, 2 for '#' (a comment), 0 for the rest (trace_syntax.c). */
extern const uint8_t dv_trace_byte_class[256];

static inline bool is_space(char c)
{
    return dv_trace_byte_class[(uint8_t)c] == 1;
}

/* The next whitespace-separated token of line[*pos, len); a '#' starts a comment.  false at the end. */
static inline bool tok_next(const char *line, size_t len, size_t *pos, tok_t *t)
{
    size_t i = *pos;
    while (i < len && dv_trace_byte_class[(uint8_t)line[i]] == 1)
        i++;
    if (i == len || line[i] == '#') {
        *pos = len;
        return false;
    }
    size_t b = i;
    while (i < len && !dv_trace_byte_class[(uint8_t)line[i]])
        i++;
    t->s = line + b;
    t->n = i - b;
    *pos = i;
    return true;
}

static inline int tok_col(const char *line, tok_t t)
{
    return (int)(t.s - line) + 1;
}

/* The column just past a token: where a missing token should have been. */
static inline int tok_end_col(const char *line, tok_t t)
{
    return (int)(t.s + t.n - line) + 1;
}

static inline bool tok_is(tok_t t, const char *word)
{
    size_t i = 0;
    while (i < t.n && word[i] && word[i] == t.s[i])
        i++;
    return i == t.n && word[i] == '\0';
}

/* FNV-1a of a name, for the hash tables of mnemonics (trace_syntax.c) and argument names
 * (trace_read.c). */
static inline uint32_t dv_trace_name_hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

/* Where a line is: for messages. */
typedef struct where {
    const char *file;
    int line;
} where_t;

/* ---------------------------------------------------------------- numbers, names (trace_syntax.c) */

/* Decimal or 0x hex digits: 0, -1 when not a number, -2 when it does not fit in 64 bits.  Inline:
 * the reader converts the offsets of most DMA lines with it (trace_read.c). */
static inline int dv_trace_parse_u64(const char *s, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    if (n > 2 && s[0] == '0' && (s[1] | 0x20) == 'x') {
        for (size_t i = 2; i < n; i++) {
            const unsigned c = (uint8_t)s[i];
            unsigned d = c - '0';
            if (d > 9) {
                d = (c | 0x20) - 'a'; /* 'A'..'F' | 0x20 are 'a'..'f' */
                if (d > 5)
                    return -1;
                d += 10;
            }
            if (v >> 60)
                return -2;
            v = v << 4 | d;
        }
    } else {
        if (n == 0)
            return -1;
        for (size_t i = 0; i < n; i++) {
            const unsigned d = (unsigned)(uint8_t)s[i] - '0';
            if (d > 9)
                return -1;
            if (v > (UINT64_MAX - d) / 10)
                return -2;
            v = v * 10 + d;
        }
    }
    *out = v;
    return 0;
}
/* "LO:HI" of a random initialisation: two finite numbers, LO < HI (0, else -1). */
int dv_trace_parse_range(const char *s, size_t n, double *lo, double *hi);
/* An argument name: a letter or '_', then letters, digits or '_', shorter than DV_NAME_MAX. */
bool dv_trace_is_ident(const char *s, size_t n);
/* A kernel name: letters, digits, '_', '.', '-', shorter than DV_NAME_MAX. */
bool dv_trace_is_kernel_name(const char *s, size_t n);
/* Build the name tables (mnemonics, spaces, dtypes, pipes) on first use; the reader is used from
 * one thread. */
void dv_trace_names_init(void);
/* The opcode of a mnemonic, DV_OP_INVALID when unknown (after dv_trace_names_init). */
dv_op_t dv_trace_op_find(const char *s, size_t n);
/* The dtype named s[0..n), -1 when unknown; "f16, bf16, ..." into buf. */
int dv_trace_dtype_find(const char *s, size_t n);
const char *dv_trace_dtype_list(char *buf, size_t cap);

/* Tests: the long compares (trace_read.c) take their baseline 16-byte form even on a CPU with
 * AVX2 (wide: false), or again the widest form the CPU runs (true, the default); the same bytes are
 * compared either way, so every result is the same. */
void dv_trace_allow_wide(bool wide);

/* Parse the instruction whose mnemonic token `t` has been read; the fields follow at pos. */
int dv_trace_parse_insn_fields(const char *line, size_t len, size_t pos, tok_t t, const dv_kernel_info_t *info,
                               where_t w, dv_insn_t *out, dv_error_t *err);

/* ---------------------------------------------------------------- the binary form (trace_binary.c) */

/* The first byte of the binary magic (traces/FORMAT.md section 10): a text trace never starts with it. */
#define DV_TRACE_BINARY_BYTE0 0x89u

/* Parse a text header (version, kernel and arg lines, nothing after them) into *info (args malloc'ed,
 * the caller's; subs = 1); kind_line/kind_col: where kind= is.  Errors at file:line:column of text. */
int dv_trace_header_parse(const char *text, size_t len, const char *file, dv_kernel_info_t *info, int *kind_line,
                          int *kind_col, dv_error_t *err);
/* Open a binary trace: from fp (a regular file positioned anywhere; mapped, not closed), or from a
 * copy of data[0, len). */
int dv_trace_binary_open_file(FILE *fp, const char *path, dv_kernel_t **out, dv_error_t *err);
int dv_trace_binary_open_bytes(const void *data, size_t len, const char *name, dv_kernel_t **out, dv_error_t *err);
/* For a kernel of the binary reader: where its header gives kind= (true), else false. */
bool dv_trace_binary_kind_at(const dv_kernel_t *k, where_t *w, int *col);
/* dv_trace_close of a kernel of the binary reader (true), else false. */
bool dv_trace_binary_close(dv_kernel_t *k);

#endif
