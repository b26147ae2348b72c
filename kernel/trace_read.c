/* kernel/trace_read.c - the streaming trace reader of traces/FORMAT.md.
 *
 * dv_trace_open scans the file once: it parses the header, checks the block structure and the
 * first token of every instruction line, and records where each block/sub stream starts.  The
 * instructions themselves are parsed when a stream is read, one line at a time, with a
 * hand-written tokenizer (trace_syntax.c): memory stays O(blocks + args) whatever the length of the
 * trace. */
#include "trace_syntax.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "dv/file.h"
#include "dv/topology.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
/* The long compares (a loop's whole iteration with its expected text, the scan's period with the one
 * before) also have a 32-byte form, taken on a CPU with AVX2 (wide_ok): the same bytes compared, each
 * step twice as wide (half the steps).  The rest of the reader is built for the baseline CPU. */
#if defined(__SSE2__) && defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define HAVE_WIDE 1
#include <immintrin.h>
#define WIDE __attribute__((target("avx2")))
#else
#define HAVE_WIDE 0
#endif

#define READ_BUF_BYTES 16384u            /* per stream; a line must fit (FORMAT.md "Limits") */

/* ---------------------------------------------------------------- line reader */

#define READ_SLACK 64u /* readable bytes past the end of a padded reader's text (word-at-a-time loads) */

/* The open-time scan's repeated periods (scan_known_lines): at most SP_LINES lines and SP_BYTES bytes;
 * the lines of the last SP_HIST lines, SP_SEEN places to find a line like one before. */
enum { SP_LINES = 32, SP_HIST = 64, SP_SEEN = 64, SP_BYTES = 2048 };

/* Lines of a file (own buffer) or of text in memory (fp NULL). */
typedef struct reader {
    FILE *fp;
    char *buf;
    const char *cur, *lim; /* unread bytes */
    const char *nul;       /* find_nul: the first NUL byte in [cur, lim), or NULL */
    uint64_t off;          /* offset of cur in the file or text */
    uint32_t line;         /* number of the last line returned */
    bool eof;
    bool padded;   /* READ_SLACK bytes past lim can be read, and *lim is a NUL (it ends in-place scans) */
    bool find_nul; /* keep nul up to date (the scan's check that a trace is text) */
    bool pending_io;   /* a refill made early (tp_try) failed to read: the next refill's error, */
    int pending_errno; /* with its errno, so the error is the one the line there would have met */
} reader_t;

/* Refill a file reader's buffer with the unread bytes first, and before them the `hist` bytes read
 * before cur (the scan's last period: its buffer has room for SP_BYTES more): 0, or a negative
 * status.  Up to READ_BUF_BYTES bytes from cur are read whatever hist is, so a line's limit is the
 * same. */
static int reader_fill_hist(reader_t *r, size_t hist)
{
    size_t keep = (size_t)(r->lim - r->cur);
    if (keep == READ_BUF_BYTES)
        return DV_ERR_PARSE;
    if (r->pending_io) {
        errno = r->pending_errno;
        return DV_ERR_IO;
    }
    memmove(r->buf, r->cur - hist, hist + keep);
    char *const cur = r->buf + hist;
    size_t got = fread(cur + keep, 1, READ_BUF_BYTES - keep, r->fp);
    /* the unread bytes, moved (also on a failure: a refill made early leaves a reader to go on with),
     * and the READ_SLACK bytes past lim zero: the NUL ends the in-place scans of shape_walk_at, and
     * every byte a word-at-a-time load reads is defined (the buffer is malloc'ed) */
    const bool failed = got == 0 && ferror(r->fp);
    r->cur = cur;
    r->lim = cur + keep + got;
    memset(cur + keep + got, 0, READ_SLACK);
    if (failed)
        return DV_ERR_IO;
    if (got == 0)
        r->eof = true;
    if (r->find_nul) /* one pass per buffer, not one per line */
        r->nul = memchr(r->cur, '\0', keep + got);
    return 0;
}

static int reader_fill(reader_t *r)
{
    return reader_fill_hist(r, 0);
}

/* The line at cur ending at nl (a newline, or lim at the end of the text): 1. */
static inline int reader_take(reader_t *r, const char *nl, const char **s, size_t *n)
{
    size_t adv = (size_t)(nl - r->cur) + (nl < r->lim);
    *s = r->cur;
    *n = (size_t)(nl - r->cur);
    if (*n && (*s)[*n - 1] == '\r')
        (*n)--;
    r->cur += adv;
    r->off += adv;
    r->line++;
    return 1;
}

/* reader_next when the buffer holds no whole line: refill, the last line, the end or an error. */
static int reader_next_slow(reader_t *r, const char **s, size_t *n)
{
    for (;;) {
        const char *nl = r->cur < r->lim ? memchr(r->cur, '\n', (size_t)(r->lim - r->cur)) : NULL;
        if (nl || r->eof || !r->fp) {
            if (!nl) {
                if (r->cur == r->lim)
                    return 0;
                nl = r->lim;
            }
            if ((size_t)(nl - r->cur) >= READ_BUF_BYTES) /* only text in memory gets here: same limit */
                return DV_ERR_PARSE;
            return reader_take(r, nl, s, n);
        }
        int rc = reader_fill(r);
        if (rc)
            return rc;
    }
}

/* 1 and the line (without its newline or a trailing CR), 0 at the end, or a negative status.  The
 * common case (a whole line in the buffer) is inline: the reader runs once per line twice over. */
static inline int reader_next(reader_t *r, const char **s, size_t *n)
{
    const char *nl = r->cur < r->lim ? memchr(r->cur, '\n', (size_t)(r->lim - r->cur)) : NULL;
    if (nl && (size_t)(nl - r->cur) < READ_BUF_BYTES)
        return reader_take(r, nl, s, n);
    return reader_next_slow(r, s, n);
}

/* ---------------------------------------------------------------- words of a padded line */

/* The hot paths compare and hash a padded reader's lines eight bytes at a time: a line's last word
 * is read whole (its bytes past the line are the next line's or the slack's) and cut to the line
 * with word_head, so no byte past the line decides anything. */
static inline uint64_t load8(const char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

/* The first k bytes (0 < k <= 8) of a word loaded from memory, the others zero; on either byte
 * order (the test folds to a constant). */
static inline uint64_t word_head(uint64_t w, size_t k)
{
    const uint16_t one = 1;
    uint8_t little;
    memcpy(&little, &one, 1);
    return little ? w & (UINT64_MAX >> (64 - 8 * k)) : w & (UINT64_MAX << (64 - 8 * k));
}

/* Cache keys: text[0, n), 0 < n, kept as words with the bytes past n zero. */
static inline uint64_t key_hash(const char *s, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
    size_t i = 0;
    for (; i + 8 < n; i += 8) {
        h = (h ^ load8(s + i)) * 0xff51afd7ed558ccdull;
        h ^= h >> 29;
    }
    h = (h ^ word_head(load8(s + i), n - i)) * 0xff51afd7ed558ccdull;
    return h ^ (h >> 29);
}

/* A cache key: text[0, len) as words, the bytes past len zero; tail keeps the bytes of the last
 * word that are the text's, so a comparison needs no length arithmetic. */
enum { KEY_TEXT = 96 };
typedef struct cache_key {
    uint64_t w[KEY_TEXT / 8 + 1]; /* + 1: a shape's text is read in words at any offset */
    uint64_t tail;
    uint32_t len;                 /* 0: no key */
    uint32_t last;                /* the index of the last word */
} cache_key_t;

static inline void key_set(cache_key_t *k, const char *s, size_t n)
{
    size_t i = 0, j = 0;
    for (; i + 8 < n; i += 8, j++)
        k->w[j] = load8(s + i);
    k->tail = word_head(UINT64_MAX, n - i);
    k->w[j] = load8(s + i) & k->tail;
    k->len = (uint32_t)n;
    k->last = (uint32_t)j;
}

/* Is s[0, k->len) the key's text (s readable 7 bytes further)? */
static inline bool key_is(const cache_key_t *k, const char *s)
{
    const uint32_t last = k->last;
    for (uint32_t j = 0; j < last; j++) /* (a word a turn: a vectorised loop costs more on a few words) */
        if (load8(s + 8 * (size_t)j) != k->w[j])
            return false;
    return (load8(s + 8 * (size_t)last) & k->tail) == k->w[last];
}

/* Copy n bytes as whole words: dst has room for n rounded up to 8, src as many readable bytes. */
static inline void copy_words(char *dst, const char *src, size_t n)
{
    for (size_t i = 0; i < n; i += 8)
        memcpy(dst + i, src + i, 8);
}

static int reader_error(const reader_t *r, int rc, const char *file, dv_error_t *err)
{
    if (rc == DV_ERR_IO)
        return dv_error_set(err, DV_ERR_IO, file, (int)r->line + 1, 0, "read error: %s", strerror(errno));
    return dv_error_set(err, DV_ERR_PARSE, file, (int)r->line + 1, 1, "line is longer than %u bytes",
                        READ_BUF_BYTES - 1);
}

/* ---------------------------------------------------------------- kernels and streams */

typedef struct block_pos {
    uint64_t off;  /* first byte after the block line */
    uint32_t line; /* number of the block line; 0 = not seen */
} block_pos_t;

typedef struct trace_kernel {
    dv_kernel_t k;
    char *source;      /* file name for messages */
    char *text;        /* dv_trace_open_string: the copied text; NULL for a file */
    size_t text_len;
    block_pos_t *pos;  /* blocks * stride */
    uint32_t stride;   /* 1, or DV_SUB_MAX for a mix kernel (info.subs is known after the scan) */
    int kind_line, kind_col; /* where the kernel line gives kind=, for dv_trace_check_profile */
    unsigned refs;     /* the kernel itself plus one per open stream */
    uint32_t args_cap;
    uint32_t *arg_slot; /* open addressing over the argument names: index + 1, 0 = empty */
    uint32_t slots;     /* a power of two, more than twice the arguments */
} trace_kernel_t;

/* The slot of argument name s[0..n): the one holding it, or the empty one it would take. */
static uint32_t *arg_slot_of(const trace_kernel_t *tk, const char *s, size_t n)
{
    uint32_t i = dv_trace_name_hash(s, n) & (tk->slots - 1);
    while (tk->arg_slot[i]) {
        const char *a = tk->k.info.args[tk->arg_slot[i] - 1].name;
        if (strlen(a) == n && memcmp(a, s, n) == 0)
            break;
        i = (i + 1) & (tk->slots - 1);
    }
    return &tk->arg_slot[i];
}

/* Room in the name table for one more argument (kept under half full). */
static bool arg_slots_reserve(trace_kernel_t *tk)
{
    if (2 * (tk->k.info.nargs + 1) < tk->slots)
        return true;
    const uint32_t old = tk->slots, n = old ? 2 * old : 64;
    uint32_t *fresh = calloc(n, sizeof *fresh), *prev = tk->arg_slot;
    if (!fresh)
        return false;
    tk->arg_slot = fresh;
    tk->slots = n;
    for (uint32_t i = 0; i < old; i++)
        if (prev[i]) {
            const char *a = tk->k.info.args[prev[i] - 1].name;
            *arg_slot_of(tk, a, strlen(a)) = prev[i];
        }
    free(prev);
    return true;
}

/* A stream's decoded lines: an instruction line's text (from its mnemonic to the end of the line)
 * decides what it parses to, but for its line number, so a line seen before with the same text is
 * not parsed again.  Kernels repeat lines (flags, barriers, vector instructions on the same
 * buffers): on the benchmark's vector trace three lines in four are found here.  Sets of DC_WAYS
 * entries by a hash of the text, the entry used longest ago replaced, so the lines a loop repeats
 * stay while lines met once pass through.  Only lines that parsed (or were decoded from a shape and
 * passed dv_insn_check) are kept, so every error is the parser's, at its column.  Allocated with
 * the stream's first instruction.
 *
 * Kernels also repeat the order of their lines (a loop body), so each entry remembers what
 * followed its line (hints_t): the next line is first compared with those entries and that shape,
 * in place in the reader's buffer, before its end is looked for or its text hashed.  A line
 * decoded that way from a shape is not kept (a DMA line's offsets seldom come back; when they do,
 * the line is kept the next time it is found by its hash): the shape's own hints stand for it. */
enum { DC_SLOTS = 128, DC_WAYS = 4, DC_SET_BITS = 5, DC_TEXT = KEY_TEXT };
typedef struct decoded_line decoded_line_t;
typedef struct decoded_shape decoded_shape_t;

/* What followed a line (or a line of a shape) the last times: the entries of the last two
 * different lines, the one to try first in next[0], and the shape of the last one decoded from its
 * shape.  A loop that alternates two buffers alternates its successors (`set_flag ... id=0`, then
 * `id=1`): after a change the one before the last is tried first, else the last (tried first
 * always, the alternating lines of the vector trace missed every other time).  Hints only: checked
 * in full before use, NULL when none. */
typedef struct hints {
    decoded_line_t *next[2];
    decoded_line_t *last; /* the last successor (NULL: a line not kept) */
    decoded_shape_t *shape;
    bool shape_first; /* the last one was decoded from `shape` in place (a DMA line: a new offset) */
} hints_t;

struct decoded_line {
    uint64_t hash;
    uint32_t used;   /* the line number it was last found at (0: never) */
    uint32_t seq;    /* the stream's count of lines noted when it was last noted (replay_learn) */
    cache_key_t key; /* the text; len 0: empty slot */
    hints_t hints;
    dv_insn_t insn;
};

/* A stream's decoded line shapes: lines that differ only in the offsets of their addresses
 * (`x+0x8000`, `ub:0x4000`) have one shape, the text with each offset's digits replaced by one
 * SHAPE_MARK byte.  A DMA walking a tensor repeats its shape with a new offset each time, so a line
 * not found above is decoded from its shape's instruction with only the offsets converted: each
 * offset goes into the field it was parsed into, checked as the parser checks it, then
 * dv_insn_check.  Any doubt (a number that does not convert, an offset out of range, a failed
 * check) parses the line, so every error is still the parser's.  An offset is masked only when
 * its digits end its token (a blank, '#' or the end of the line follows), so a shape's text and
 * the masked runs give back the line's tokens exactly. */
enum { SC_SLOTS = 64, SC_BITS = 6, SC_MASKS = 4, SHAPE_MARK = 0x01 };
typedef struct shape_mask {
    uint64_t limit; /* the offset must be below: its argument's bytes (ARG+OFFSET), else OFF_LIMIT */
    uint64_t tail;  /* the text before its SHAPE_MARK (from the last one): its last word's bytes, as
                     * word_head keeps them (0 when there is no text) */
    uint8_t field;  /* the field the offset was parsed into (an address field) */
    uint8_t at;     /* where its SHAPE_MARK is in the shape's text */
    uint8_t seen_len[2]; /* the last two runs of at most 8 bytes converted here: their length (0: none), */
    uint8_t seen_next;   /* which one the next replaces, */
    uint64_t seen_text[2], seen_value[2]; /* their bytes (word_head) and value */
} shape_mask_t;
struct decoded_shape {
    uint64_t hash;
    cache_key_t key; /* the shape's text; len 0: empty slot */
    uint8_t nmask;
    bool cross;      /* the op has rules across fields (dv_insn_rules_t.cross): a new offset is checked */
    uint32_t seq;    /* as decoded_line_t.seq */
    uint64_t tail;   /* the text after the last SHAPE_MARK: as shape_mask_t.tail */
    shape_mask_t mask[SC_MASKS];
    hints_t hints;                  /* after the last line of this shape */
    dv_insn_t insn;
};

/* The shape of text[0, n): its text into buf (at most DC_TEXT bytes) and the masked runs' places.
 * -1 when the line has no usable shape (no offset, too many, a SHAPE_MARK byte of its own, too long). */
typedef struct shape {
    size_t len;
    int nmask;
    struct {
        size_t at, n; /* the run text[at, at + n) */
        size_t mark;  /* its SHAPE_MARK: buf[mark] */
    } run[SC_MASKS];
    char buf[DC_TEXT + 8]; /* + 8: built and read in words */
} shape_t;

/* The bytes of an offset's run: hex digits and the x of 0x. */
static const uint8_t offset_char[256] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
    ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1,
    ['E'] = 1, ['F'] = 1, ['x'] = 1, ['X'] = 1};

/* The bytes shape_of stops at: an offset's ':' or '+', a comment's '#', and SHAPE_MARK. */
static const uint8_t shape_stop[256] = {[':'] = 1, ['+'] = 1, ['#'] = 2, [SHAPE_MARK] = 3};

#define ONES 0x0101010101010101ull
/* Nonzero when some byte of w is c (exact as a yes/no: bytes above a zero one may also be flagged). */
static inline uint64_t byte_in(uint64_t w, unsigned char c)
{
    const uint64_t x = w ^ (ONES * c);
    return (x - ONES) & ~x & (ONES * 0x80);
}

/* The first byte of text[i, n) that shape_of stops at, or n: eight bytes are ruled out at a time
 * (text[n, n + 8) is readable: a padded reader's line). */
static inline size_t next_stop(const char *text, size_t i, size_t n)
{
    for (; i < n; i += 8) {
        const uint64_t w = load8(text + i);
        if (!(byte_in(w, ':') | byte_in(w, '+') | byte_in(w, '#') | byte_in(w, SHAPE_MARK)))
            continue;
        const size_t e = i + 8 < n ? i + 8 : n;
        for (size_t j = i; j < e; j++)
            if (shape_stop[(uint8_t)text[j]])
                return j;
    }
    return n;
}

/* The end of the offset run that starts at text[i]: i when there is none, and (size_t)-1 when its
 * digits do not end their token. */
static inline size_t offset_run(const char *text, size_t i, size_t n)
{
    size_t j = i;
    while (j < n && offset_char[(uint8_t)text[j]])
        j++;
    return j == i || j == n || dv_trace_byte_class[(uint8_t)text[j]] ? j : (size_t)-1;
}

static int shape_of(const char *text, size_t n, shape_t *sh)
{
    size_t o = 0, from = 0, i = 0; /* text[from, i) is still to be copied into the shape */
    sh->nmask = 0;
    for (;;) {
        i = next_stop(text, i, n);
        if (i == n || text[i] == '#')
            break; /* the parser stops at a comment, and so does the shape */
        if (text[i] == (char)SHAPE_MARK)
            return -1;
        /* a ':' or '+': an offset follows when it is the first one after the '=' of its token (an
         * earlier one after the '=' was masked and so ended the token, or returned) */
        bool in_value = false;
        for (size_t b = i; b > from && !dv_trace_byte_class[(uint8_t)text[b - 1]]; b--)
            if (text[b - 1] == '=') {
                in_value = true;
                break;
            }
        i++;
        if (!in_value)
            continue;
        size_t j = offset_run(text, i, n);
        if (j == i || j == (size_t)-1 || sh->nmask == SC_MASKS || o + (i - from) + 1 > DC_TEXT)
            return -1; /* not a plain offset ending its token: keep the parser in charge */
        copy_words(sh->buf + o, text + from, i - from);
        o += i - from;
        sh->run[sh->nmask].mark = o;
        sh->buf[o++] = (char)SHAPE_MARK;
        sh->run[sh->nmask].at = i;
        sh->run[sh->nmask].n = j - i;
        sh->nmask++;
        from = i = j;
    }
    if (sh->nmask == 0 || o + (i - from) > DC_TEXT)
        return -1;
    copy_words(sh->buf + o, text + from, i - from);
    sh->len = o + (i - from);
    return 0;
}

/* The line decoded from its shape's instruction d with the offsets off[]: 0, or -1 to parse it.
 * d->insn passed dv_insn_check (the parser ran it), and only the offsets change: an address field's
 * checks are on its space (bits 63..56), so without rules across fields (which may look at
 * offsets) the line passes as d->insn did, with no need to run dv_insn_check again. */
static int shape_apply(const decoded_shape_t *d, const uint64_t *off, dv_insn_t *out)
{
    dv_insn_copy(out, &d->insn);
    for (int k = 0; k < d->nmask; k++) {
        dv_val_t *v = &out->f[d->mask[k].field];
        if (off[k] >= d->mask[k].limit)
            return -1;
        v->u = (v->u & ~0xFFFFFFFFFFull) | off[k];
    }
    return !d->cross || dv_insn_check(out, NULL) == DV_OK ? 0 : -1;
}

/* The line whose shape is sh (the shape of d) decoded from d: 0, or -1 to parse it. */
static int shape_decode(const decoded_shape_t *d, const shape_t *sh, const char *text, dv_insn_t *out)
{
    uint64_t off[SC_MASKS];
    for (int k = 0; k < sh->nmask; k++)
        if (dv_trace_parse_u64(text + sh->run[k].at, sh->run[k].n, &off[k]) != 0)
            return -1;
    return shape_apply(d, off, out);
}

/* word_head's mask for the last word of n bytes (0 for none). */
static inline uint64_t tail_mask(size_t n)
{
    return n ? word_head(UINT64_MAX, (n - 1) % 8 + 1) : 0;
}

/* Do a[0, n) and b[0, n) hold the same bytes (tail: tail_mask(n))?  Both can be read 15 bytes further
 * (a shape's text: its key's words and the fields after them). */
static inline bool bytes_equal(const char *a, const char *b, size_t n, uint64_t tail)
{
#if defined(__SSE2__)
    /* sixteen bytes a compare: a line's text between two offsets seldom needs two */
    (void)tail;
    for (;; n -= 16, a += 16, b += 16) {
        const unsigned ne = 0xFFFFu ^ (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
                                           _mm_loadu_si128((const __m128i *)(const void *)a),
                                           _mm_loadu_si128((const __m128i *)(const void *)b)));
        if (n <= 16)
            return (ne & ((1u << n) - 1)) == 0;
        if (ne)
            return false;
    }
#else
    for (; n > 8; n -= 8, a += 8, b += 8) /* (a word a turn: the texts are short, seldom over 24 bytes) */
        if (load8(a) != load8(b))
            return false;
    return ((load8(a) ^ load8(b)) & tail) == 0;
#endif
}

/* bytes_equal for longer texts (a template's text between two runs, often several lines): 64 bytes
 * a compare first.  b_aligned (a constant at each call): b is sixteen-byte aligned (template_t.exp),
 * so b's bytes are compared from memory, not loaded first (a compare of 64 bytes: four loads, not
 * eight). */
static inline __attribute__((always_inline)) bool text_equal_as(const char *a, const char *b, size_t n, uint64_t tail,
                                                                bool b_aligned)
{
#if defined(__SSE2__)
#define LD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define LDB(p) (b_aligned ? _mm_load_si128((const __m128i *)(const void *)(p)) : LD(p))
    for (; n > 64; n -= 64, a += 64, b += 64) {
        const __m128i x = _mm_and_si128(_mm_cmpeq_epi8(LD(a), LDB(b)), _mm_cmpeq_epi8(LD(a + 16), LDB(b + 16)));
        const __m128i y = _mm_and_si128(_mm_cmpeq_epi8(LD(a + 32), LDB(b + 32)), _mm_cmpeq_epi8(LD(a + 48), LDB(b + 48)));
        if (_mm_movemask_epi8(_mm_and_si128(x, y)) != 0xFFFF)
            return false;
    }
#undef LDB
#undef LD
#else
    (void)b_aligned;
#endif
    return bytes_equal(a, b, n, tail); /* (n less by a multiple of 8: the same tail) */
}

static inline bool text_equal(const char *a, const char *b, size_t n, uint64_t tail)
{
    return text_equal_as(a, b, n, tail, false);
}

static inline bool text_equal_aligned(const char *a, const char *b, size_t n, uint64_t tail)
{
    return text_equal_as(a, b, n, tail, true);
}

static bool wide_allowed = true; /* dv_trace_allow_wide */

void dv_trace_allow_wide(bool wide)
{
    wide_allowed = wide;
}

/* Does this CPU run the 32-byte compares (HAVE_WIDE), and may they be taken? */
static inline bool wide_ok(void)
{
#if HAVE_WIDE
    return wide_allowed && __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

#if HAVE_WIDE
/* text_equal in 64 bytes a step of two 32-byte compares (wide_ok), then bytes_equal as it. */
static WIDE bool text_equal_wide(const char *a, const char *b, size_t n, uint64_t tail)
{
#define LD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
    for (; n > 64; n -= 64, a += 64, b += 64)
        if ((uint32_t)_mm256_movemask_epi8(_mm256_and_si256(_mm256_cmpeq_epi8(LD(a), LD(b)),
                                                            _mm256_cmpeq_epi8(LD(a + 32), LD(b + 32)))) != UINT32_MAX)
            return false;
#undef LD
    return bytes_equal(a, b, n, tail);
}
#endif

/* text_equal_aligned for a loop's whole iteration (wide: wide_ok()). */
static inline bool text_equal_long(const char *a, const char *b, size_t n, uint64_t tail, bool wide)
{
#if HAVE_WIDE
    if (wide)
        return text_equal_wide(a, b, n, tail);
#else
    (void)wide;
#endif
    return text_equal_aligned(a, b, n, tail);
}

/* Hex digit values; 16 for the other bytes. */
static const uint8_t hex_value[256] = {
    ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
    ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13,
    ['D'] = 14, ['E'] = 15, ['F'] = 16};

/* The offset run that starts at p[t] (p[0, avail) are the buffer's bytes, p[avail] a NUL) converted
 * as shape_of and dv_trace_parse_u64 would take it, in one pass: the run is the longest one of
 * offset_char bytes, and it must be 0x and hex digits, or decimal digits.  Its end (> t), or 0 for
 * any doubt: more digits than surely fit in 64 bits are left to the parser too. */
static inline size_t offset_parse(const char *p, size_t t, size_t avail, uint64_t *out)
{
    uint64_t v = 0;
    size_t j = t;
    unsigned d;
    if (p[t] == '0' && (p[t + 1] | 0x20) == 'x' && (d = hex_value[(uint8_t)p[t + 2]]) != 0) {
        /* a digit a turn: the byte after it and its value looked up while it is added */
        const uint8_t *q = (const uint8_t *)p + t + 2;
        do {
            v = v << 4 | (d - 1);
            d = hex_value[*++q];
        } while (d);
        j = (size_t)((const char *)q - p);
        if (j - t - 2 > 15)
            return 0;
    } else {
        for (; (d = (unsigned)(uint8_t)p[j] - '0') <= 9; j++)
            v = v * 10 + d;
        if (j == t || j - t > 19)
            return 0;
    }
    if (j >= avail || offset_char[(uint8_t)p[j]]) /* the run goes on with bytes its number does not take */
        return 0;
    *out = v;
    return j;
}

/* offset_parse through the mask's memory of its last two runs: a loop alternates its buffers
 * (`dst=ub:0x0`, then `dst=ub:0x4000`), so one offset in two is text met before.  A run is the one
 * remembered when its bytes are, and the byte after them is not an offset_char (the run ends there,
 * as offset_parse would find it); the run and its value are then offset_parse's. */
static inline size_t offset_seen(shape_mask_t *m, const char *p, size_t t, size_t avail, uint64_t *out)
{
    const uint64_t w = load8(p + t);
    for (int i = 0; i < 2; i++) {
        const size_t len = m->seen_len[i];
        if (len && (w & word_head(UINT64_MAX, len)) == m->seen_text[i] && t + len < avail &&
            !offset_char[(uint8_t)p[t + len]]) {
            *out = m->seen_value[i];
            return t + len;
        }
    }
    const size_t j = offset_parse(p, t, avail, out);
    if (j && j - t <= 8) {
        const int i = m->seen_next;
        m->seen_len[i] = (uint8_t)(j - t);
        m->seen_text[i] = word_head(w, j - t);
        m->seen_value[i] = *out;
        m->seen_next = (uint8_t)(i ^ 1);
    }
    return j;
}

/* A line at p (p[0, avail) are the bytes in the reader's buffer) decoded from d when d's text is its
 * shape: the text around the offsets is d's, each offset is a run that ends its token, and a newline
 * (CR LF) follows, so shape_of would give d's text (a line with blanks before its mnemonic or a
 * comment is not matched).  0 and the line's length *n and its bytes with the newline *adv, or -1
 * (another shape, the newline not yet read, or parse it). */
static int shape_walk_at(decoded_shape_t *d, const char *p, size_t avail, size_t *n, size_t *adv, dv_insn_t *out)
{
    const char *st = (const char *)d->key.w;
    uint64_t off[SC_MASKS];
    size_t t = 0, s = 0; /* p[t] and st[s] are to be matched next */
    for (int k = 0; k < d->nmask; k++) {
        const size_t seg = d->mask[k].at - s;
        if (t + seg >= avail || !bytes_equal(p + t, st + s, seg, d->mask[k].tail))
            return -1;
        t += seg;
        s += seg + 1;
        const size_t j = offset_seen(&d->mask[k], p, t, avail, &off[k]);
        if (!j || !(dv_trace_byte_class[(uint8_t)p[j]] || p[j] == '\n'))
            return -1;
        t = j;
    }
    const size_t seg = d->key.len - s;
    if (t + seg + 2 > avail || !bytes_equal(p + t, st + s, seg, d->tail))
        return -1;
    t += seg;
    const size_t a = t + 1 + (p[t] == '\r');
    if (p[a - 1] != '\n')
        return -1;
    *n = t;
    *adv = a;
    return shape_apply(d, off, out);
}

/* Keep the shape of a line the parser decoded into insn, when each masked offset is the offset of
 * one address field (the field is found by the name before the token's '='): true when kept. */
static bool shape_keep(decoded_shape_t *d, uint64_t h, const shape_t *sh, const char *text, const dv_insn_t *insn,
                       const dv_kernel_info_t *info)
{
    const dv_form_spec_t *fs = dv_form_spec(dv_op_spec((dv_op_t)insn->op)->form);
    for (int k = 0; k < sh->nmask; k++) {
        size_t e = sh->run[k].at - 1, b = e; /* the ':' / '+' before the offset; the token starts at b */
        while (b > 0 && !dv_trace_byte_class[(uint8_t)text[b - 1]])
            b--;
        const char *eq = memchr(text + b, '=', e - b);
        if (!eq)
            return false;
        const size_t nn = (size_t)(eq - (text + b));
        int fi = -1;
        for (int i = 0; i < fs->nfields && fi < 0; i++)
            if (strlen(fs->fields[i].name) == nn && memcmp(fs->fields[i].name, text + b, nn) == 0)
                fi = i;
        uint64_t off = 0;
        if (fi < 0 || fs->fields[fi].kind != DV_FK_ADDR ||
            dv_trace_parse_u64(text + sh->run[k].at, sh->run[k].n, &off) != 0 || DV_ADDR_OFF(insn->f[fi].u) != off)
            return false;
        d->mask[k].field = (uint8_t)fi;
        d->mask[k].limit = text[e] == '+' ? info->args[DV_ADDR_ARG(insn->f[fi].u)].bytes : OFF_LIMIT;
        d->mask[k].at = (uint8_t)sh->run[k].mark;
        d->mask[k].tail = tail_mask(sh->run[k].mark - (k ? sh->run[k - 1].mark + 1 : 0));
        d->mask[k].seen_len[0] = d->mask[k].seen_len[1] = 0;
        d->mask[k].seen_next = 0;
    }
    d->tail = tail_mask(sh->len - (sh->run[sh->nmask - 1].mark + 1));
    d->hash = h;
    d->nmask = (uint8_t)sh->nmask;
    d->cross = dv_insn_rules((dv_op_t)insn->op)->cross;
    key_set(&d->key, sh->buf, sh->len);
    d->insn = *insn;
    return true;
}

/* A stream's loop, replayed: a kernel's loop body repeats its lines in the same order, each a line
 * kept in the cache (the same text) or of a shape kept (new offsets), so once the last 2p lines
 * noted are one sequence of p entries twice, the next lines are taken as that sequence again, one
 * position after the other: each line is compared in place with the one entry at its position (as
 * take_predicted and shape_walk_at do for a hint), with no guesses to keep up to date.  The first
 * line that is not its position's entry (the loop ends, a comment, a blank line, a CR LF, other
 * offsets that do not convert, an error, the end of the read buffer) stops the replay: that line
 * is read the general way, and the replay goes on after it when it is found as that entry (a line
 * of the read buffer's next fill), else ends, and the general way learns the loop again from the
 * lines it reads.  An entry may have been replaced in its cache by
 * another line since: it is then another line's text and instruction, still consistent, so the
 * line is compared with that text and the replay at worst ends.  RP_MAX is the longest loop body
 * (in lines) replayed; the history holds two of them. */
enum { RP_MAX = 32, RP_HIST = 2 * RP_MAX };
typedef struct replay_entry replay_entry_t;
struct replay_entry {
    decoded_line_t *line;   /* a line kept, or NULL: */
    decoded_shape_t *shape; /* a line of this shape */
    replay_entry_t *next;   /* the entry of the line after it (the first one's after the last) */
};

/* A replayed loop's iteration as one template: the text of its p lines one after the other (each
 * entry's text and a newline), with the offsets of its lines of a shape taken out (runs), and the
 * instruction of each line.  An iteration that starts where the ring does is compared with the
 * whole template at once: the text between two runs (most of it: the kept lines and the fixed
 * parts of the shapes' lines, often several lines long) sixteen bytes at a time, each run converted
 * as shape_walk_at converts it (offset_seen: a loop alternates its buffers, so one run in two is
 * text met before) and checked against its limit, and the lines of ops with rules across fields
 * checked as shape_apply checks them.  Only when all of it matches are its lines handed out, one a
 * call, each the template's instruction with its runs' values: the line of a kept entry is its
 * text, so its instruction is the entry's, and a line of a shape is decoded as shape_walk_at decodes
 * it.  Anything else in the iteration (a comment, a blank line, CR LF, blanks before a mnemonic,
 * other text, an offset that does not convert or is out of range, the text's end) leaves the whole
 * iteration to the replay a line at a time, so every error is still found where it is by the
 * general way.  The template is a copy made when it is first tried (of the ring's entries, which
 * the caches may replace later). */
enum { TP_RUNS = RP_MAX * SC_MASKS, TP_TEXT = RP_MAX * (DC_TEXT + 1), TP_RUN_MAX = 20 /* bytes: 19 digits + 1 */ };
typedef struct tp_run {
    shape_mask_t m;   /* the shape's mask (its limit and field; its memory of runs met, offset_seen) */
    uint32_t at;      /* where the run is in the template's text (the text before it ends there) */
    uint64_t tail;    /* the text before it (from the previous run): its last word's mask, tail_mask */
    uint64_t *dst;    /* the field it goes into: in the template's instruction of its line */
    /* the run expected next: the last value plus the last step (a loop walks its tensors by a
     * stride; 0 for a buffer the iteration does not change), as its canonical text `0x` and
     * pred_n lower-case digits (pred_n 0: none expected) */
    uint64_t last, pred, pred_digits, pred_mask;
    uint32_t pred_n;
    uint8_t line;     /* the line of the iteration it is in */
    uint8_t same;     /* the iterations in a row it was the expected text with the last value */
    bool canon;       /* the last iteration matched it as the expected text */
    uint32_t exp_at;  /* where its digits are in the expected iteration's text (template_t.exp) */
} tp_run_t;
/* Runs that walk together (the same expected value and step: a loop walks x, y and z by the same
 * offsets) while the expected text is matched: their value and text are made once. */
typedef struct tp_group {
    uint64_t pred, step;  /* the value expected next, and its step */
    uint64_t limit;       /* the least of the runs' limits */
    uint64_t mask;        /* pred_mask of n digits */
    uint32_t n;           /* the digits of pred */
    uint32_t first, end;  /* its runs: template_t.g_*[first, end) */
} tp_group_t;
typedef struct template {
    uint32_t len;                     /* the text's bytes */
    uint32_t nruns;
    uint32_t ncross;                  /* lines of an op with rules across fields: */
    uint8_t cross[RP_MAX];            /* their indexes */
    uint16_t first_run[RP_MAX + 1];   /* the runs of line i: [first_run[i], first_run[i + 1]) */
    uint64_t tail;                    /* the text after the last run: as tp_run_t.tail */
    uint32_t frozen;                  /* runs made text (tp_freeze) */
    tp_run_t run[TP_RUNS];
    dv_insn_t insn[RP_MAX];           /* each line's instruction, with the last runs' values */
    char text[TP_TEXT + TP_RUNS * TP_RUN_MAX + 16]; /* + 16: read sixteen bytes at a time (bytes_equal) */
    /* (not on the stack: a stream is read on a SystemC thread's small one) */
    uint64_t val[TP_RUNS];            /* tp_try: the runs' values of the iteration matched */
    char scratch[sizeof(char[TP_TEXT + TP_RUNS * TP_RUN_MAX + 16])]; /* tp_freeze: the new text */
    /* The next iteration's text when every run is its expected text (tp_expect): the template's text
     * with each run's `0x` and pred_n digits in place.  An iteration that is this text is matched by
     * one compare, and its runs' values are their pred; a run's next expected text of as many digits
     * is written over its digits (exp_at) after it, so only a change of length makes it again. */
    bool exp_ok;                      /* exp is that text (else the runs are matched one by one) */
    uint32_t exp_len;
    uint64_t exp_tail;                /* tail_mask(exp_len) */
    /* the runs whose step is not 0, by group: while exp_ok, their tp_run_t's last, pred and text are
     * their group's (tp_sync writes them back before the runs are matched one by one) */
    uint32_t ngroups;
    tp_group_t group[TP_RUNS];
    uint64_t *g_dst[TP_RUNS];         /* each run's field */
    uint32_t g_at[TP_RUNS];           /* where its digits are in exp */
    uint16_t g_run[TP_RUNS];          /* its index */
    _Alignas(16) char exp[sizeof(char[TP_TEXT + TP_RUNS * TP_RUN_MAX + 16])]; /* (text_equal_aligned) */
} template_t;

typedef struct trace_stream {
    dv_stream_t s;
    trace_kernel_t *tk;
    reader_t r;
    bool done;
    decoded_line_t *dc;   /* DC_SLOTS, or NULL (not yet, or out of memory: every line is parsed) */
    decoded_shape_t *sc;  /* SC_SLOTS, or NULL */
    decoded_line_t *prev;        /* where the last line was kept, or NULL */
    decoded_shape_t *prev_shape; /* the shape it was decoded from, or NULL */
    hints_t *hints;              /* what may follow it: prev's hints, else prev_shape's, else NULL */
    uint32_t noted;              /* lines noted (stream_note) since the stream opened */
    uint32_t noted_from;         /* the count when the last replay ended: older history is not this run's */
    replay_entry_t *rp_at;       /* replaying: the next line's entry; else NULL */
    replay_entry_t *rp_stop;     /* a replay stopped: the entry of the line it stopped at, else NULL */
    replay_entry_t hist[RP_HIST];  /* the last lines noted: hist[i % RP_HIST] for the i-th */
    replay_entry_t rp[RP_MAX];
    uint32_t rp_len;             /* the loop's lines (p) */
    /* the loop's template: tried where the ring starts (tp_first, NULL when not to be tried) */
    replay_entry_t *tp_first;
    template_t *tp;              /* allocated when first built, kept for the next loops */
    bool tp_built;               /* tp is the template of the ring's loop */
    uint8_t tp_fails;            /* its tries in a row that did not match */
    const dv_insn_t *tp_at, *tp_end; /* the matched iteration's lines still to be handed out */
    uint32_t tp_line;                /* the line number of the last one handed out */
} trace_stream_t;

static void kernel_unref(trace_kernel_t *tk)
{
    if (--tk->refs)
        return;
    free(tk->k.info.args);
    free(tk->arg_slot);
    free(tk->pos);
    free(tk->text);
    free(tk->source);
    free(tk);
}

void dv_trace_close(dv_kernel_t *k)
{
    if (k && !dv_trace_binary_close(k))
        kernel_unref(k->impl);
}

static int trace_stream_open(dv_kernel_t *k, uint32_t block, uint32_t sub, dv_stream_t **out, dv_error_t *err);

int dv_trace_check_profile(const dv_kernel_t *k, const dv_config_t *cfg, dv_error_t *err)
{
    int rc = dv_topo_check_kernel(cfg, &k->info, err);
    where_t w;
    int col;
    if (rc != DV_OK && err && k->open == trace_stream_open) {
        const trace_kernel_t *tk = k->impl;
        snprintf(err->file, sizeof err->file, "%s", tk->source);
        err->line = tk->kind_line;
        err->col = tk->kind_col;
    } else if (rc != DV_OK && err && dv_trace_binary_kind_at(k, &w, &col)) {
        snprintf(err->file, sizeof err->file, "%s", w.file);
        err->line = w.line;
        err->col = col;
    }
    return rc;
}

/* Does text[0, n) start with the token `word` (k bytes)? */
static inline bool starts_token(const char *text, size_t n, const char *word, size_t k)
{
    return n >= k && memcmp(text, word, k) == 0 && (n == k || dv_trace_byte_class[(uint8_t)text[k]]);
}

/* Is the next line e's text (from its first byte: no blanks before the mnemonic) and its newline
 * (CR LF)?  Then it is read: true.  The newline must be in the buffer (else the reader takes the line). */
static inline bool take_predicted(reader_t *r, const decoded_line_t *e)
{
    const size_t n = e->key.len;
    const char *p = r->cur;
    if (n == 0 || (size_t)(r->lim - p) < n + 2 || !key_is(&e->key, p))
        return false;
    const size_t adv = n + 1 + (p[n] == '\r');
    if (p[adv - 1] != '\n')
        return false;
    r->cur += adv;
    r->off += adv;
    r->line++;
    return true;
}

static inline void hints_add(hints_t *h, decoded_line_t *d, decoded_shape_t *used)
{
    decoded_line_t *const last = h->last;
    if (d && d != last && last) { /* a change: the next one may change back */
        h->next[0] = last;
        h->next[1] = d;
    } else if (d && h->next[0] != d) { /* the same again (or the first): d first */
        h->next[1] = h->next[0];
        h->next[0] = d;
    }
    h->last = d;
    if (used)
        h->shape = used;
    h->shape_first = used && !d;
}

static inline bool replay_same(replay_entry_t a, replay_entry_t b)
{
    return a.line == b.line && a.shape == b.shape;
}

/* The line just noted was the n-th (n = ts->noted - 1) and found as e, which was last found as the
 * (n - p)-th: when the 2p lines up to it are one sequence of p entries twice, replay it (the next
 * line is the sequence's first again).  Called only for a line found as a kept line or decoded in
 * place from its shape (the ways a replay finds lines again). */
static void replay_learn(trace_stream_t *ts, replay_entry_t e, uint32_t *seq)
{
    const uint32_t n = ts->noted - 1, p = n - *seq;
    *seq = n;
    ts->hist[n % RP_HIST] = e;
    if (p == 0 || p > RP_MAX || n + 1 - ts->noted_from < 2 * p)
        return;
    for (uint32_t k = 1; k < p; k++)
        if (!replay_same(ts->hist[(n - k) % RP_HIST], ts->hist[(n - p - k) % RP_HIST]))
            return;
    for (uint32_t k = 0; k < p; k++) {
        ts->rp[k] = ts->hist[(n + 1 - p + k) % RP_HIST];
        ts->rp[k].next = &ts->rp[k + 1 < p ? k + 1 : 0];
    }
    ts->rp_at = &ts->rp[0];
    ts->rp_len = p;
    ts->tp_first = &ts->rp[0];
    ts->tp_built = false;
    ts->tp_fails = 0;
}

/* The line just decoded is kept at d (or NULL), from shape `used` (or NULL): tell the previous line's. */
static inline void stream_note(trace_stream_t *ts, decoded_line_t *d, decoded_shape_t *used)
{
    if (ts->prev)
        hints_add(&ts->prev->hints, d, used);
    if (ts->prev_shape)
        hints_add(&ts->prev_shape->hints, d, used);
    ts->prev = d;
    ts->prev_shape = used;
    ts->hints = d ? &d->hints : used ? &used->hints : NULL;
    ts->noted++;
    /* a line of a shape is its shape's (the next one has other offsets), else the line's */
    const replay_entry_t e = {used ? NULL : d, used, NULL};
    if (ts->rp_stop) { /* a replay stopped at this line: it goes on when the line is its entry's */
        if ((d || used) && replay_same(e, *ts->rp_stop)) {
            ts->rp_at = ts->rp_stop->next;
            ts->rp_stop = NULL;
            return;
        }
        ts->rp_stop = NULL;
        ts->noted_from = ts->noted - 1;
    }
    if (used)
        replay_learn(ts, e, &used->seq);
    else if (d)
        replay_learn(ts, e, &d->seq);
    else /* a line not kept: no loop through it */
        ts->hist[(ts->noted - 1) % RP_HIST] = e;
}

/* Keep the line text[0, n) (line number `at`) decoded into insn at d (in its set for hash h); a
 * line of a shape starts with that shape's hints. */
static void line_keep(decoded_line_t *d, uint64_t h, uint32_t at, const char *text, size_t n, const dv_insn_t *insn,
                      const decoded_shape_t *used)
{
    d->hash = h;
    d->used = at;
    key_set(&d->key, text, n);
    d->insn = *insn;
    if (used)
        d->hints = used->hints;
    else
        memset(&d->hints, 0, sizeof d->hints);
}

/* A stream's caches, empty: an entry's hash, key length and last use are all that is read of it
 * before it is kept (line_keep, shape_keep write the rest), so only they are cleared; calloc cleared
 * every byte (~70 KB a stream, ~85 K host instructions). */
static decoded_line_t *lines_new(void)
{
    decoded_line_t *d = malloc(DC_SLOTS * sizeof *d);
    for (unsigned i = 0; d && i < DC_SLOTS; i++) {
        d[i].hash = 0;
        d[i].used = 0;
        d[i].seq = 0;
        d[i].key.len = 0;
    }
    return d;
}

static decoded_shape_t *shapes_new(void)
{
    decoded_shape_t *d = malloc(SC_SLOTS * sizeof *d);
    for (unsigned i = 0; d && i < SC_SLOTS; i++) {
        d[i].hash = 0;
        d[i].seq = 0;
        d[i].key.len = 0;
    }
    return d;
}

/* The dc set for the line text[0, n) (*h: its hash), or NULL (too long, or out of memory). */
static inline decoded_line_t *line_set(trace_stream_t *ts, const char *text, size_t n, uint64_t *h)
{
    if (n > DC_TEXT || !(ts->dc || (ts->dc = lines_new())))
        return NULL;
    *h = key_hash(text, n);
    return &ts->dc[(*h >> (64 - DC_SET_BITS)) * DC_WAYS];
}

/* The entry of set that holds text[0, n) (hash h), else NULL and *victim: the one to replace. */
static inline decoded_line_t *line_find(decoded_line_t *set, uint64_t h, const char *text, size_t n,
                                        decoded_line_t **victim)
{
    decoded_line_t *v = set;
    for (int w = 0; w < DC_WAYS; w++) {
        decoded_line_t *e = &set[w];
        if (e->hash == h && e->key.len == n && key_is(&e->key, text))
            return e;
        if (e->used < v->used)
            v = e;
    }
    *victim = v;
    return NULL;
}

/* The line at the reader decoded from shape ds in place (shape_walk_at): true. */
static inline bool stream_walked(trace_stream_t *ts, decoded_shape_t *ds, dv_insn_t *out)
{
    size_t n, adv;
    if (shape_walk_at(ds, ts->r.cur, (size_t)(ts->r.lim - ts->r.cur), &n, &adv, out) != 0)
        return false;
    ts->r.cur += adv;
    ts->r.off += adv;
    out->line = ++ts->r.line;
    stream_note(ts, NULL, ds);
    return true;
}

/* The next line when replaying (stream_next took a kept line's): a line of a shape, else the
 * replay stops there (the last line's hints take over, as when it was read the general way): 1, or
 * 0 when it stopped. */
static int replay_shape(trace_stream_t *ts, replay_entry_t *re, dv_insn_t *out)
{
    size_t n, adv;
    if (re->shape && shape_walk_at(re->shape, ts->r.cur, (size_t)(ts->r.lim - ts->r.cur), &n, &adv, out) == 0) {
        ts->r.cur += adv;
        ts->r.off += adv;
        out->line = ++ts->r.line;
        ts->rp_at = re->next;
        return 1;
    }
    const replay_entry_t *last = re;
    while (last->next != re)
        last = last->next;
    ts->prev = last->line;
    ts->prev_shape = last->shape;
    ts->hints = last->line ? &last->line->hints : last->shape ? &last->shape->hints : NULL;
    ts->rp_at = NULL;
    ts->rp_stop = re;
    return 0;
}

/* A line that follows the previous one as a line did before (hp: what did): the entries it names
 * from `from` on (stream_next tried the first), and its shape, first when the last one was of it. */
static bool stream_predicted(trace_stream_t *ts, const hints_t *hp, int from, dv_insn_t *out)
{
    decoded_shape_t *ds = hp->shape;
    if (hp->shape_first && stream_walked(ts, ds, out))
        return true;
    for (int k = from; k < 2; k++) {
        decoded_line_t *e = hp->next[k];
        if (e && take_predicted(&ts->r, e)) {
            dv_insn_copy(out, &e->insn);
            out->line = e->used = ts->r.line;
            stream_note(ts, e, NULL);
            return true;
        }
    }
    return ds && !hp->shape_first && stream_walked(ts, ds, out);
}

/* stream_next past its first guess (tried: whether it was tried): the other guesses, a line decoded
 * before (found by its hash), a line of a shape decoded before, or a line parsed. */
static int stream_next_slow(trace_stream_t *ts, int tried, dv_insn_t *out, dv_error_t *err)
{
    const char *line = NULL; /* (set when reader_next returns 1) */
    size_t len = 0;
    if (ts->done)
        return 0;
    if (ts->hints && stream_predicted(ts, ts->hints, tried, out))
        return 1;
    for (;;) {
        int rc = reader_next(&ts->r, &line, &len);
        if (rc <= 0) {
            ts->done = true;
            ts->hints = NULL;
            ts->rp_stop = NULL;
            return rc == 0 ? 0 : reader_error(&ts->r, rc, ts->tk->source, err);
        }
        size_t i = 0;
        while (i < len && dv_trace_byte_class[(uint8_t)line[i]] == 1)
            i++;
        if (i == len || line[i] == '#')
            continue;
        /* text: the line from its first token on (the scan found that token a mnemonic, "block" or "end") */
        const char *text = line + i;
        const size_t n = len - i;
        if ((text[0] == 'b' && starts_token(text, n, "block", 5)) || (text[0] == 'e' && starts_token(text, n, "end", 3))) {
            ts->done = true;
            ts->hints = NULL;
            ts->rp_stop = NULL;
            return 0;
        }
        const dv_kernel_info_t *info = &ts->tk->k.info;
        uint64_t h = 0;
        decoded_line_t *set = line_set(ts, text, n, &h), *d = NULL, *hit;
        if (set && (hit = line_find(set, h, text, n, &d)) != NULL) {
            dv_insn_copy(out, &hit->insn);
            out->line = hit->used = ts->r.line;
            stream_note(ts, hit, NULL);
            return 1;
        }
        shape_t sh;
        decoded_shape_t *ds = NULL, *used = NULL;
        uint64_t sh_h = 0;
        if (d && shape_of(text, n, &sh) == 0 && (ts->sc || (ts->sc = shapes_new()))) {
            sh_h = key_hash(sh.buf, sh.len);
            ds = &ts->sc[sh_h >> (64 - SC_BITS)];
            if (ds->key.len == sh.len && ds->hash == sh_h && key_is(&ds->key, sh.buf) &&
                shape_decode(ds, &sh, text, out) == 0)
                used = ds;
        }
        if (used) {
            out->line = ts->r.line;
        } else {
            size_t pos = i;
            tok_t t;
            tok_next(line, len, &pos, &t);
            where_t w = {ts->tk->source, (int)ts->r.line};
            rc = dv_trace_parse_insn_fields(line, len, pos, t, info, w, out, err);
            if (rc != DV_OK)
                return rc;
            if (ds && shape_keep(ds, sh_h, &sh, text, out, info)) {
                memset(&ds->hints, 0, sizeof ds->hints);
                used = ds;
            }
        }
        if (d)
            line_keep(d, h, ts->r.line, text, n, out, used);
        stream_note(ts, d, used);
        return 1;
    }
}

/* The eight hex digits of v as text (lower case, the most significant first in memory): each
 * nibble spread to a byte, then made a digit or a letter, eight at a time. */
static inline uint64_t hex8_text(uint32_t v)
{
    uint64_t x = v;
    x = (x | x << 16) & 0x0000FFFF0000FFFFull;
    x = (x | x << 8) & 0x00FF00FF00FF00FFull;
    x = (x | x << 4) & 0x0F0F0F0F0F0F0F0Full; /* nibble i in byte i (bits 8i..8i+3) */
    const uint16_t one = 1;
    uint8_t little;
    memcpy(&little, &one, 1);
    if (little) /* the most significant digit first in memory */
        x = __builtin_bswap64(x);
    const uint64_t letter = ((x + 0x7676767676767676ull) >> 7) & ONES; /* nibbles of 10 and more */
    return x + ONES * '0' + letter * ('a' - '0' - 10);
}

/* The digits of the canonical text of pred < 2^32 (no leading zeros, as word_head keeps n bytes). */
static inline uint64_t hex_digits(uint64_t pred, uint32_t n)
{
    const uint64_t digits = hex8_text((uint32_t)pred);
    const uint16_t one = 1;
    uint8_t little;
    memcpy(&little, &one, 1);
    return little ? digits >> 8 * (8 - n) : digits << 8 * (8 - n);
}

/* The count of hex digits of v (1 for 0). */
static inline uint32_t hex_count(uint64_t v)
{
    return v ? (uint32_t)(67 - __builtin_clzll(v)) / 4 : 1;
}

/* A run's expected value pred and its text (pred_n 0: none, when it is past 32 bits or its limit). */
static inline void tp_expect_value(tp_run_t *run, uint64_t pred)
{
    run->pred = pred;
    run->pred_n = 0;
    if (pred >> 32 || pred >= run->m.limit)
        return;
    const uint32_t n = hex_count(pred);
    run->pred_digits = hex_digits(pred, n);
    run->pred_mask = word_head(UINT64_MAX, n);
    run->pred_n = n;
}

/* A run's next expected value and text (tp_run_t.pred), after its value v. */
static inline void tp_predict(tp_run_t *run, uint64_t v)
{
    const uint64_t pred = v + (v - run->last);
    run->last = v;
    if (pred == run->pred && run->pred_n)
        return; /* (the same text as last time: a buffer the loop keeps) */
    tp_expect_value(run, pred);
}

/* The next iteration's text when each run is its expected text (template_t.exp), and the groups of
 * the runs that walk: exp_ok, unless a run has none. */
static void tp_expect(template_t *tp)
{
    size_t o = 0, from = 0;
    uint8_t gid[TP_RUNS];
    uint32_t count[TP_RUNS];
    tp->exp_ok = false;
    tp->ngroups = 0;
    for (uint32_t k = 0; k < tp->nruns; k++) {
        tp_run_t *const run = &tp->run[k];
        if (!run->pred_n)
            return;
        memcpy(tp->exp + o, tp->text + from, run->at - from);
        o += run->at - from;
        from = run->at;
        tp->exp[o++] = '0';
        tp->exp[o++] = 'x';
        run->exp_at = (uint32_t)o;
        memcpy(tp->exp + o, &run->pred_digits, 8); /* (the bytes past its digits are written next) */
        o += run->pred_n;
        const uint64_t step = run->pred - run->last;
        gid[k] = UINT8_MAX;
        if (!step)
            continue;
        uint32_t g = 0;
        while (g < tp->ngroups && !(tp->group[g].pred == run->pred && tp->group[g].step == step))
            g++;
        if (g == tp->ngroups) {
            tp->group[g] = (tp_group_t){.pred = run->pred, .step = step, .limit = run->m.limit,
                                        .mask = run->pred_mask, .n = run->pred_n};
            count[g] = 0;
            tp->ngroups++;
        }
        if (run->m.limit < tp->group[g].limit)
            tp->group[g].limit = run->m.limit;
        gid[k] = (uint8_t)g;
        count[g]++;
    }
    memcpy(tp->exp + o, tp->text + from, tp->len - from);
    o += tp->len - from;
    tp->exp_len = (uint32_t)o;
    tp->exp_tail = tail_mask(o);
    uint32_t at = 0;
    for (uint32_t g = 0; g < tp->ngroups; g++) {
        tp->group[g].first = tp->group[g].end = at;
        at += count[g];
    }
    for (uint32_t k = 0; k < tp->nruns; k++)
        if (gid[k] != UINT8_MAX) {
            const uint32_t i = tp->group[gid[k]].end++;
            tp->g_dst[i] = tp->run[k].dst;
            tp->g_at[i] = tp->run[k].exp_at;
            tp->g_run[i] = (uint16_t)k;
        }
    tp->exp_ok = true;
}

/* The walking runs' last, pred and text from their groups' (while exp_ok only these are kept). */
static void tp_sync(template_t *tp)
{
    for (uint32_t g = 0; g < tp->ngroups; g++) {
        const tp_group_t *const gr = &tp->group[g];
        for (uint32_t i = gr->first; i < gr->end; i++) {
            tp_run_t *const run = &tp->run[tp->g_run[i]];
            run->last = gr->pred - gr->step;
            tp_expect_value(run, gr->pred);
        }
    }
}

/* The template of the ring's loop (template_t) into ts->tp: false when there is none to make. */
static bool tp_build(trace_stream_t *ts)
{
    template_t *tp = ts->tp ? ts->tp : (ts->tp = malloc(sizeof *ts->tp));
    if (!tp)
        return false;
    size_t len = 0, prev = 0; /* prev: where the text after the last run starts */
    uint32_t nr = 0;
    tp->ncross = 0;
    for (uint32_t i = 0; i < ts->rp_len; i++) {
        const replay_entry_t *re = &ts->rp[i];
        tp->first_run[i] = (uint16_t)nr;
        if (re->line) {
            const decoded_line_t *e = re->line;
            if (e->key.len == 0)
                return false;
            memcpy(tp->text + len, e->key.w, e->key.len);
            len += e->key.len;
            tp->insn[i] = e->insn;
        } else if (re->shape) {
            const decoded_shape_t *d = re->shape;
            const char *st = (const char *)d->key.w;
            size_t s = 0;
            for (int k = 0; k < d->nmask; k++) {
                const size_t seg = d->mask[k].at - s;
                memcpy(tp->text + len, st + s, seg);
                len += seg;
                s += seg + 1;
                tp->run[nr].m = d->mask[k];
                tp->run[nr].at = (uint32_t)len;
                tp->run[nr].tail = tail_mask(len - prev);
                tp->run[nr].dst = &tp->insn[i].f[d->mask[k].field].u;
                tp->run[nr].last = DV_ADDR_OFF(d->insn.f[d->mask[k].field].u);
                tp->run[nr].pred = 0;
                tp->run[nr].pred_n = 0;
                tp->run[nr].line = (uint8_t)i;
                tp->run[nr].same = 0;
                prev = len;
                nr++;
            }
            memcpy(tp->text + len, st + s, d->key.len - s);
            len += d->key.len - s;
            tp->insn[i] = d->insn;
            if (d->cross)
                tp->cross[tp->ncross++] = (uint8_t)i;
        } else { /* a line not kept: the replay stops there, and so no iteration matches */
            return false;
        }
        tp->text[len++] = '\n';
    }
    tp->first_run[ts->rp_len] = (uint16_t)nr;
    tp->len = (uint32_t)len;
    tp->nruns = nr;
    tp->tail = tail_mask(len - prev);
    tp->frozen = 0;
    tp->exp_ok = false;
    return true;
}

/* The runs an iteration does not change (a buffer it keeps: `dst=ub:0x0` in each), met as their
 * expected text with the same value twice, become text of the template: the text between two runs
 * gets longer and is compared in fewer, longer stretches, and those runs are not converted again.
 * Their value stays in their line's instruction.  (A template that then misses is made again
 * from the ring: tp_try.) */
static void tp_freeze(template_t *tp)
{
    char *const text = tp->scratch;
    size_t o = 0, from = 0, prev = 0;
    uint32_t nr = 0;
    for (uint32_t k = 0; k < tp->nruns; k++) {
        tp_run_t run = tp->run[k];
        memcpy(text + o, tp->text + from, run.at - from);
        o += run.at - from;
        from = run.at;
        if (run.same >= 2) { /* its canonical text: `0x` and its digits (as pred_digits holds them) */
            text[o++] = '0';
            text[o++] = 'x';
            memcpy(text + o, &run.pred_digits, 8);
            o += run.pred_n;
            tp->frozen++;
            continue;
        }
        run.at = (uint32_t)o;
        run.tail = tail_mask(o - prev);
        prev = o;
        tp->run[nr++] = run;
    }
    memcpy(text + o, tp->text + from, tp->len - from);
    o += tp->len - from;
    memcpy(tp->text, text, o);
    tp->len = (uint32_t)o;
    tp->tail = tail_mask(o - prev);
    tp->exp_ok = false;
    uint32_t k = 0;
    for (uint32_t i = 0; i < RP_MAX + 1; i++) { /* each line's runs, for its cross check */
        tp->first_run[i] = (uint16_t)k;
        while (k < nr && tp->run[k].line == i)
            k++;
    }
    tp->nruns = nr;
}

/* Do the lines of ops with rules across fields pass with the runs' values val[] (as shape_apply)? */
static bool tp_cross_ok(const template_t *tp, const uint64_t *val)
{
    for (uint32_t c = 0; c < tp->ncross; c++) {
        const uint32_t i = tp->cross[c];
        dv_insn_t in;
        dv_insn_copy(&in, &tp->insn[i]);
        for (uint32_t k = tp->first_run[i]; k < tp->first_run[i + 1]; k++) {
            dv_val_t *v = &in.f[tp->run[k].m.field];
            v->u = (v->u & ~0xFFFFFFFFFFull) | val[k];
        }
        if (dv_insn_check(&in, NULL) != DV_OK)
            return false;
    }
    return true;
}

/* An iteration that was the expected text (template_t.exp) is taken: each run's value is its pred,
 * and the next expected text is made (over the digits in place when their count stays). */
static void tp_take_expected(template_t *tp)
{
    bool relayout = false;
    for (uint32_t g = 0; g < tp->ngroups; g++) {
        tp_group_t *const gr = &tp->group[g];
        const uint64_t v = gr->pred, pred = v + gr->step;
        for (uint32_t i = gr->first; i < gr->end; i++)
            *tp->g_dst[i] = (*tp->g_dst[i] & ~0xFFFFFFFFFFull) | v;
        gr->pred = pred;
        if (pred >> 32 || pred >= gr->limit || hex_count(pred) != gr->n) {
            relayout = true;
            continue;
        }
        const uint64_t digits = hex_digits(pred, gr->n);
        for (uint32_t i = gr->first; i < gr->end; i++) {
            char *const at = tp->exp + tp->g_at[i];
            const uint64_t w = (load8(at) & ~gr->mask) | digits;
            memcpy(at, &w, 8);
        }
    }
    if (relayout) { /* a text of another length, or none */
        tp_sync(tp);
        tp_expect(tp);
    }
}

/* The line after a whole iteration of the loop matched with its template (at the ring's start), the
 * iteration's first line into out and the others to hand out: true; else false and nothing read. */
static bool tp_try(trace_stream_t *ts, dv_insn_t *out)
{
    if (!ts->tp_built && !(ts->tp_built = tp_build(ts))) {
        ts->tp_first = NULL;
        return false;
    }
    template_t *const tp = ts->tp;
    reader_t *const r = &ts->r;
    /* an iteration is matched in the buffer: a file reader's is refilled first when it may end past
     * its bytes (a failed refill is the next one's error: the line it is met at reports it) */
    if ((size_t)(r->lim - r->cur) < tp->len + (size_t)tp->nruns * TP_RUN_MAX && r->fp && !r->eof && !r->pending_io &&
        reader_fill(r) == DV_ERR_IO) {
        r->pending_io = true;
        r->pending_errno = errno;
    }
    const char *const p = r->cur;
    const size_t avail = (size_t)(r->lim - p);
    uint64_t *const val = tp->val;
    size_t t = 0, s = 0; /* p[t] and tp->text[s] are to be matched next */
    if (tp->exp_ok) { /* the common case: every run is its expected text */
        bool cross = true;
        if (tp->ncross) {
            for (uint32_t k = 0; k < tp->nruns; k++)
                val[k] = tp->run[k].pred;
            for (uint32_t g = 0; g < tp->ngroups; g++)
                for (uint32_t i = tp->group[g].first; i < tp->group[g].end; i++)
                    val[tp->g_run[i]] = tp->group[g].pred;
            cross = tp_cross_ok(tp, val);
        }
        if (tp->exp_len <= avail && text_equal_long(p, tp->exp, tp->exp_len, tp->exp_tail, wide_ok()) && cross) {
            t = tp->exp_len;
            tp_take_expected(tp);
            goto matched;
        }
        tp_sync(tp);
        tp->exp_ok = false; /* (made again when the runs are each their expected text again) */
    }
    bool canon = true;
    for (uint32_t k = 0; k < tp->nruns; k++) {
        tp_run_t *const run = &tp->run[k];
        const size_t seg = run->at - s;
        if (t + seg >= avail || !text_equal(p + t, tp->text + s, seg, run->tail))
            goto miss;
        t += seg;
        s += seg;
        /* the byte after the run is the text's next one: a blank or the newline (shape_of), so a run
         * that is the expected one's text ends there, as offset_parse would find it; else as
         * shape_walk_at converts it */
        const uint64_t digits = load8(p + t + 2);
        if (run->pred_n && p[t] == '0' && p[t + 1] == 'x' && (digits & run->pred_mask) == run->pred_digits &&
            t + 2 + run->pred_n < avail) {
            val[k] = run->pred;
            t += 2 + run->pred_n;
            run->canon = true;
            continue;
        }
        run->canon = canon = false;
        const size_t j = offset_seen(&run->m, p, t, avail, &val[k]);
        if (!j || val[k] >= run->m.limit)
            goto miss;
        t = j;
    }
    const size_t seg = tp->len - s;
    if (t + seg > avail || !text_equal(p + t, tp->text + s, seg, tp->tail))
        goto miss;
    t += seg;
    if (!tp_cross_ok(tp, val))
        goto miss;
    bool freeze = false;
    for (uint32_t k = 0; k < tp->nruns; k++) {
        tp_run_t *const run = &tp->run[k];
        *run->dst = (*run->dst & ~0xFFFFFFFFFFull) | val[k];
        run->same = run->canon && val[k] == run->last ? run->same + 1 : 0;
        freeze |= run->same == 2;
        tp_predict(run, val[k]);
    }
    if (freeze)
        tp_freeze(tp);
    if (canon) /* each run was its expected text: the next iteration may well be all of it */
        tp_expect(tp);
matched:
    r->cur += t;
    r->off += t;
    ts->tp_line = r->line;
    r->line += ts->rp_len;
    ts->tp_fails = 0;
    ts->tp_at = tp->insn + 1;
    ts->tp_end = tp->insn + ts->rp_len;
    dv_insn_copy(out, &tp->insn[0]);
    out->line = ++ts->tp_line;
    return true;
miss:
    /* a loop whose iterations keep differing from it (a comment in each) is left to the replay; a
     * template with runs made text is made again (one of them may be what changed) */
    if (++ts->tp_fails == 4)
        ts->tp_first = NULL;
    if (tp->frozen)
        ts->tp_built = false;
    return false;
}

/* stream_next past a replayed kept line: a replayed line of a shape, the line that followed the
 * last line the last time read in place, or the general way.  (ts->hints is NULL, and no loop is
 * replayed, once the stream is done.)  Not inline: stream_next's common case then needs no
 * registers saved. */
static __attribute__((noinline)) int stream_next_hinted(trace_stream_t *ts, dv_insn_t *out, dv_error_t *err)
{
    replay_entry_t *const re = ts->rp_at;
    if (re) {
        if (re == ts->tp_first) { /* an iteration starts: the template, else its first line as below */
            if (tp_try(ts, out))
                return 1;
            decoded_line_t *e = re->line;
            if (e && take_predicted(&ts->r, e)) {
                dv_insn_copy(out, &e->insn);
                out->line = e->used = ts->r.line;
                ts->rp_at = re->next;
                return 1;
            }
        }
        if (replay_shape(ts, re, out))
            return 1;
    }
    const hints_t *hp = ts->hints;
    decoded_line_t *e;
    if (!hp || hp->shape_first || !(e = hp->next[0]))
        return stream_next_slow(ts, 0, out, err);
    if (!take_predicted(&ts->r, e))
        return stream_next_slow(ts, 1, out, err);
    dv_insn_copy(out, &e->insn);
    out->line = e->used = ts->r.line;
    stream_note(ts, e, NULL);
    return 1;
}

/* The next instruction of a stream.  Inline, its most common case: the next line of a loop
 * replayed, a line kept, read in place. */
static int stream_next(dv_stream_t *s, dv_insn_t *out, dv_error_t *err)
{
    trace_stream_t *ts = (trace_stream_t *)s;
    if (ts->tp_at != ts->tp_end) { /* a line of an iteration matched with its loop's template */
        dv_insn_copy(out, ts->tp_at++);
        out->line = ++ts->tp_line;
        return 1;
    }
    replay_entry_t *const re = ts->rp_at;
    decoded_line_t *e;
    if (!re || re == ts->tp_first || !(e = re->line) || !take_predicted(&ts->r, e))
        return stream_next_hinted(ts, out, err);
    dv_insn_copy(out, &e->insn);
    out->line = e->used = ts->r.line;
    ts->rp_at = re->next;
    return 1;
}

static void stream_close(dv_stream_t *s)
{
    trace_stream_t *ts = (trace_stream_t *)s;
    if (!ts)
        return;
    if (ts->r.fp)
        fclose(ts->r.fp);
    free(ts->r.buf);
    free(ts->dc);
    free(ts->sc);
    free(ts->tp);
    kernel_unref(ts->tk);
    free(ts);
}

static int trace_stream_open(dv_kernel_t *k, uint32_t block, uint32_t sub, dv_stream_t **out, dv_error_t *err)
{
    trace_kernel_t *tk = k->impl;
    trace_stream_t *ts = NULL;
    int rc = DV_OK;
    *out = NULL;
    if (block >= k->info.blocks || sub >= k->info.subs)
        return dv_error_set(err, DV_ERR_RANGE, tk->source, 0, 0, "no stream for block %u sub %u (blocks=%u, subs=%u)",
                            block, sub, k->info.blocks, k->info.subs);
    const block_pos_t *bp = &tk->pos[(size_t)block * tk->stride + sub];
    ts = calloc(1, sizeof *ts);
    if (!ts)
        return dv_error_set(err, DV_ERR_NOMEM, tk->source, 0, 0, "out of memory");
    ts->tk = tk;
    tk->refs++;
    ts->r.off = bp->off;
    ts->r.line = bp->line;
    ts->r.padded = true;
    if (tk->text) {
        ts->r.cur = tk->text + bp->off;
        ts->r.lim = tk->text + tk->text_len;
    } else {
        ts->r.buf = malloc(READ_BUF_BYTES + READ_SLACK); /* reader_fill zeroes the slack past its bytes */
        if (!ts->r.buf) {
            rc = dv_error_set(err, DV_ERR_NOMEM, tk->source, 0, 0, "out of memory");
            goto cleanup;
        }
        ts->r.cur = ts->r.lim = ts->r.buf;
        if ((rc = dv_open_regular(tk->source, NULL, &ts->r.fp, err)) != DV_OK)
            goto cleanup;
        setvbuf(ts->r.fp, NULL, _IONBF, 0); /* the reader buffers */
        if (fseeko(ts->r.fp, (off_t)bp->off, SEEK_SET) != 0) {
            rc = dv_error_set(err, DV_ERR_IO, tk->source, (int)bp->line, 0, "cannot seek: %s", strerror(errno));
            goto cleanup;
        }
    }
    ts->s.next = stream_next;
    ts->s.close = stream_close;
    ts->s.source = tk->source;
    *out = &ts->s;
    ts = NULL;
cleanup:
    if (ts)
        stream_close(&ts->s);
    return rc;
}

/* ---------------------------------------------------------------- header and structure scan */

/* name=value fields of a header line: vals[i]/cols[i] for names[i]; cols[i] = 0 when absent. */
static int header_fields(const char *line, size_t len, size_t pos, const char *what, const char *const *fnames, int n,
                         tok_t *vals, int *cols, where_t w, dv_error_t *err)
{
    tok_t t;
    for (int i = 0; i < n; i++)
        cols[i] = 0;
    while (tok_next(line, len, &pos, &t)) {
        const char *eq = memchr(t.s, '=', t.n);
        if (!eq || eq == t.s)
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, t),
                                "expected 'name=value' in the %s line, got '%.*s'", what, TOKQ(t));
        size_t nn = (size_t)(eq - t.s);
        int i = 0;
        while (i < n && !(strlen(fnames[i]) == nn && memcmp(fnames[i], t.s, nn) == 0))
            i++;
        if (i == n) {
            char list[128];
            size_t used = 0;
            for (int j = 0; j < n && used < sizeof list; j++)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", j ? ", " : "", fnames[j]);
            return dv_error_set(err, DV_ERR_UNKNOWN, w.file, w.line, tok_col(line, t),
                                "unknown field '%.*s' in the %s line (fields: %s)", (int)(nn > QUOTE_MAX ? QUOTE_MAX : nn),
                                t.s, what, list);
        }
        if (cols[i])
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, t), "duplicate field '%s'", fnames[i]);
        vals[i] = (tok_t){eq + 1, t.n - nn - 1};
        cols[i] = tok_col(line, vals[i]);
    }
    return DV_OK;
}

static int find_name(const char *const *tab, int n, tok_t t)
{
    for (int i = 0; i < n; i++)
        if (tok_is(t, tab[i]))
            return i;
    return -1;
}

static int scan_kernel_line(trace_kernel_t *tk, const char *line, size_t len, size_t pos, tok_t kw, where_t w,
                            dv_error_t *err)
{
    static const char *const fnames[] = {"kind", "blocks"};
    dv_kernel_info_t *info = &tk->k.info;
    tok_t name, vals[2];
    int cols[2];
    if (!tok_next(line, len, &pos, &name))
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_end_col(line, kw),
                            "expected a kernel name after 'kernel'");
    if (!dv_trace_is_kernel_name(name.s, name.n))
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, name),
                            "expected a kernel name (letters, digits, '_', '.', '-'; at most %d characters), got '%.*s'",
                            DV_NAME_MAX - 1, TOKQ(name));
    memcpy(info->name, name.s, name.n);
    info->name[name.n] = '\0';
    int rc = header_fields(line, len, pos, "kernel", fnames, 2, vals, cols, w, err);
    if (rc)
        return rc;
    for (int i = 0; i < 2; i++)
        if (!cols[i])
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, kw), "kernel: missing required field '%s'",
                                fnames[i]);
    int kind = find_name(dv_trace_kind_names, 3, vals[0]);
    if (kind < 0)
        return dv_error_set(err, DV_ERR_UNKNOWN, w.file, w.line, cols[0],
                            "unknown kernel kind '%.*s' (expected vector, cube or mix)", TOKQ(vals[0]));
    uint64_t blocks = 0;
    rc = dv_trace_parse_u64(vals[1].s, vals[1].n, &blocks);
    if (rc == -1)
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, cols[1], "field 'blocks': expected an integer, got '%.*s'",
                            TOKQ(vals[1]));
    if (rc == -2 || blocks < 1 || blocks > BLOCKS_MAX)
        return dv_error_set(err, DV_ERR_RANGE, w.file, w.line, cols[1], "field 'blocks' = %.*s is out of range [1, %u]",
                            TOKQ(vals[1]), BLOCKS_MAX);
    info->kind = (dv_kind_t)kind;
    info->blocks = (uint32_t)blocks;
    info->subs = 1; /* a mix kernel's count is the sub-streams its blocks have, known at 'end' */
    tk->stride = kind == DV_KIND_MIX ? DV_SUB_MAX : 1;
    tk->kind_line = w.line;
    tk->kind_col = cols[0];
    tk->pos = calloc((size_t)info->blocks * tk->stride, sizeof *tk->pos);
    if (!tk->pos)
        return dv_error_set(err, DV_ERR_NOMEM, w.file, w.line, 0, "out of memory");
    return DV_OK;
}

static int scan_arg_line(trace_kernel_t *tk, const char *line, size_t len, size_t pos, tok_t kw, where_t w,
                         dv_error_t *err)
{
    static const char *const fnames[] = {"bytes", "dtype", "dir", "init", "l2"};
    dv_kernel_info_t *info = &tk->k.info;
    tok_t name, vals[5];
    int cols[5];
    if (!tok_next(line, len, &pos, &name))
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_end_col(line, kw),
                            "expected an argument name after 'arg'");
    if (!dv_trace_is_ident(name.s, name.n))
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, name),
                            "expected an argument name (letter or '_', then letters, digits, '_'; at most %d characters), got '%.*s'",
                            DV_NAME_MAX - 1, TOKQ(name));
    if (!arg_slots_reserve(tk))
        return dv_error_set(err, DV_ERR_NOMEM, w.file, w.line, 0, "out of memory");
    if (*arg_slot_of(tk, name.s, name.n))
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, name), "duplicate argument '%.*s'",
                            TOKQ(name));
    if (info->nargs == ARGS_MAX)
        return dv_error_set(err, DV_ERR_RANGE, w.file, w.line, tok_col(line, kw), "more than %u arguments", ARGS_MAX);
    int rc = header_fields(line, len, pos, "arg", fnames, 5, vals, cols, w, err);
    if (rc)
        return rc;
    if (!cols[0])
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, kw), "arg: missing required field 'bytes'");
    dv_arg_t a = {.dtype = DV_DT_U8, .dir = DV_ARG_INOUT, .init = DV_INIT_ZERO, .line = (uint32_t)w.line};
    memcpy(a.name, name.s, name.n);
    rc = dv_trace_parse_u64(vals[0].s, vals[0].n, &a.bytes);
    if (rc == -1)
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, cols[0], "field 'bytes': expected an integer, got '%.*s'",
                            TOKQ(vals[0]));
    if (rc == -2 || a.bytes < 1 || a.bytes > OFF_LIMIT)
        return dv_error_set(err, DV_ERR_RANGE, w.file, w.line, cols[0], "field 'bytes' = %.*s is out of range [1, %llu]",
                            TOKQ(vals[0]), (unsigned long long)OFF_LIMIT);
    if (cols[1]) {
        int dt = dv_trace_dtype_find(vals[1].s, vals[1].n);
        char list[160];
        if (dt < 0)
            return dv_error_set(err, DV_ERR_UNKNOWN, w.file, w.line, cols[1],
                                "field 'dtype': unknown dtype '%.*s' (expected one of %s)", TOKQ(vals[1]),
                                dv_trace_dtype_list(list, sizeof list));
        a.dtype = (dv_dtype_t)dt;
    }
    if (cols[2]) {
        int dir = find_name(dv_trace_dir_names, 3, vals[2]);
        if (dir < 0)
            return dv_error_set(err, DV_ERR_UNKNOWN, w.file, w.line, cols[2],
                                "field 'dir': unknown direction '%.*s' (expected in, out or inout)", TOKQ(vals[2]));
        a.dir = (dv_arg_dir_t)dir;
    }
    if (cols[3]) {
        tok_t v = vals[3];
        if (tok_is(v, "zero")) {
            a.init = DV_INIT_ZERO;
        } else if (v.n > 7 && memcmp(v.s, "random:", 7) == 0) {
            a.init = DV_INIT_RANDOM;
            const char *range = memchr(v.s + 7, ':', v.n - 7);
            size_t seed_n = range ? (size_t)(range - v.s) - 7 : v.n - 7;
            if (dv_trace_parse_u64(v.s + 7, seed_n, &a.seed) != 0)
                return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, cols[3] + 7,
                                    "field 'init': expected a 64-bit seed after 'random:', got '%.*s'",
                                    (int)(seed_n > QUOTE_MAX ? QUOTE_MAX : seed_n), v.s + 7);
            if (range && dv_trace_parse_range(range + 1, (size_t)(v.s + v.n - range - 1), &a.lo, &a.hi) != 0)
                return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, cols[3] + (int)(range - v.s) + 1,
                                    "field 'init': expected LO:HI (finite numbers, LO < HI) after the seed, got '%.*s'",
                                    (int)(v.s + v.n - range - 1 > QUOTE_MAX ? QUOTE_MAX : v.s + v.n - range - 1),
                                    range + 1);
            /* the values must be finite in the argument's type (beyond it they would all be inf) */
            const double top = a.dtype == DV_DT_F16 ? 65504.0 : a.dtype == DV_DT_BF16 ? 0x1.fep127 : 0x1.fffffep127;
            if (range && dv_dtype_is_float(a.dtype) && (fabs(a.lo) > top || fabs(a.hi) > top))
                return dv_error_set(err, DV_ERR_RANGE, w.file, w.line, cols[3] + (int)(range - v.s) + 1,
                                    "field 'init': the range %g:%g goes beyond the largest finite %s (%g)", a.lo, a.hi,
                                    dv_dtype_name(a.dtype), top);
        } else if (v.n > 5 && memcmp(v.s, "file:", 5) == 0) {
            if (v.n - 5 >= sizeof a.path)
                return dv_error_set(err, DV_ERR_RANGE, w.file, w.line, cols[3] + 5,
                                    "field 'init': the path is longer than %zu bytes", sizeof a.path - 1);
            a.init = DV_INIT_FILE;
            memcpy(a.path, v.s + 5, v.n - 5);
        } else {
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, cols[3],
                                "field 'init': expected zero, random:SEED or file:PATH, got '%.*s'", TOKQ(v));
        }
    }
    if (cols[4]) {
        int mode = find_name(dv_trace_l2_names, 2, vals[4]);
        if (mode < 0)
            return dv_error_set(err, DV_ERR_UNKNOWN, w.file, w.line, cols[4],
                                "field 'l2': unknown L2 cache mode '%.*s' (expected normal or disable)", TOKQ(vals[4]));
        a.l2 = (dv_l2_mode_t)mode;
    }
    if (info->nargs == tk->args_cap) {
        uint32_t cap = tk->args_cap ? tk->args_cap * 2 : 4;
        dv_arg_t *args = realloc(info->args, (size_t)cap * sizeof *args);
        if (!args)
            return dv_error_set(err, DV_ERR_NOMEM, w.file, w.line, 0, "out of memory");
        info->args = args;
        tk->args_cap = cap;
    }
    info->args[info->nargs] = a;
    *arg_slot_of(tk, a.name, name.n) = ++info->nargs;
    return DV_OK;
}

static int scan_block_line(trace_kernel_t *tk, const char *line, size_t len, size_t pos, tok_t kw, const reader_t *r,
                           where_t w, dv_error_t *err)
{
    dv_kernel_info_t *info = &tk->k.info;
    tok_t num, sub, extra;
    char sub_name[16] = "";
    uint64_t b = 0;
    int s = 0;
    if (!tok_next(line, len, &pos, &num))
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_end_col(line, kw),
                            "expected a block number after 'block'");
    int rc = dv_trace_parse_u64(num.s, num.n, &b);
    if (rc == -1)
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, num), "expected a block number, got '%.*s'",
                            TOKQ(num));
    if (rc == -2 || b >= info->blocks)
        return dv_error_set(err, DV_ERR_RANGE, w.file, w.line, tok_col(line, num),
                            "block %.*s is out of range [0, %u] (the kernel declares blocks=%u)", TOKQ(num),
                            info->blocks - 1, info->blocks);
    bool has_sub = tok_next(line, len, &pos, &sub);
    if (info->kind == DV_KIND_MIX) {
        if (!has_sub)
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_end_col(line, num),
                                "a kind=mix kernel needs a sub-stream after the block number: aic, or aivN for N "
                                "in [0, %d]", DV_TOPO_AIV_MAX - 1);
        s = dv_topo_sub_lookup(sub.s, sub.n);
        if (s < 0)
            return dv_error_set(err, DV_ERR_UNKNOWN, w.file, w.line, tok_col(line, sub),
                                "unknown sub-stream '%.*s' (expected aic, or aivN for N in [0, %d])", TOKQ(sub),
                                DV_TOPO_AIV_MAX - 1);
        if (s >= DV_SUB_MAX)
            return dv_error_set(err, DV_ERR_RANGE, w.file, w.line, tok_col(line, sub),
                                "sub-stream '%.*s' is beyond the limit: an AI core has at most %d AIVs (aiv0 .. aiv%d)",
                                TOKQ(sub), DV_TOPO_AIV_MAX, DV_TOPO_AIV_MAX - 1);
        dv_topo_sub_name((uint32_t)s, sub_name, sizeof sub_name);
        if (tok_next(line, len, &pos, &extra))
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, extra),
                                "unexpected '%.*s' after 'block %.*s %s'", TOKQ(extra), TOKQ(num), sub_name);
        if ((uint32_t)s + 1 > info->subs)
            info->subs = (uint32_t)s + 1;
    } else if (has_sub) {
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, sub),
                            "unexpected '%.*s': a kind=%s kernel has one stream per block, written 'block B'", TOKQ(sub),
                            dv_trace_kind_names[info->kind]);
    }
    block_pos_t *bp = &tk->pos[(size_t)b * tk->stride + (size_t)s];
    if (bp->line) {
        tok_t at = info->kind == DV_KIND_MIX ? sub : num;
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, at), "duplicate block %llu%s%s (first at line %u)",
                            (unsigned long long)b, *sub_name ? " " : "", sub_name, bp->line);
    }
    bp->line = (uint32_t)w.line;
    bp->off = r->off;
    return DV_OK;
}

static int scan_end_line(trace_kernel_t *tk, const char *line, size_t len, size_t pos, tok_t kw, where_t w,
                         dv_error_t *err)
{
    const dv_kernel_info_t *info = &tk->k.info;
    tok_t extra;
    if (tok_next(line, len, &pos, &extra))
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, extra), "unexpected '%.*s' after 'end'",
                            TOKQ(extra));
    for (uint32_t b = 0; b < info->blocks; b++)
        for (uint32_t s = 0; s < info->subs; s++)
            if (!tk->pos[(size_t)b * tk->stride + s].line) {
                char sub_name[16] = "";
                if (info->kind == DV_KIND_MIX)
                    dv_topo_sub_name(s, sub_name, sizeof sub_name);
                return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, kw),
                                    "missing block %u%s%s (the kernel declares blocks=%u; each must appear once%s)", b,
                                    *sub_name ? " " : "", sub_name, info->blocks,
                                    info->kind == DV_KIND_MIX ? ", with every sub-stream up to the last one used" : "");
            }
    return DV_OK;
}

enum scan_state { SCAN_VERSION, SCAN_KERNEL, SCAN_ARGS, SCAN_BLOCKS, SCAN_DONE };

/* The scan's memory of instruction lines: the first bytes of a line whose first token it found a
 * mnemonic, through the blank or '#' after that token.  A line that starts with the same bytes
 * starts with the same token, so it is an instruction line without a look-up: kernels repeat a
 * few mnemonics, and canonical text follows each with the same field name.  Compared sixteen
 * bytes at a time (SSE2; else eight) under a mask; two ways per hash of the first eight bytes
 * (mnemonics that share them alternate in the same loop). */
enum { MC_SLOTS = 64, MC_WORDS = 3 };
typedef struct mn_entry {
    uint64_t w[MC_WORDS], m[MC_WORDS]; /* the line's bytes [0, n] under their mask (n: the token's length) */
    uint32_t bits; /* the bytes of the first sixteen that are compared, a bit each (an empty entry: bit
                    * 16, which no compare of sixteen bytes sets) */
    uint32_t n;    /* the bytes compared: the token and the byte after it (0: empty) */
} mn_entry_t;

static inline size_t mn_slot(const char *line)
{
    return (size_t)((load8(line) * 0x9e3779b97f4a7c15ull) >> 58) & (MC_SLOTS - 2);
}

/* Does the padded line at `line` start with e's token and the byte that ended it?  That byte is a
 * blank or '#', neither a newline nor a NUL, so a match is within the line: no length is needed. */
static inline bool mn_entry_has(const mn_entry_t *e, const char *line)
{
#if defined(__SSE2__)
    const unsigned eq = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
        _mm_loadu_si128((const __m128i *)(const void *)line), _mm_loadu_si128((const __m128i *)(const void *)e->w)));
    return (eq & e->bits) == e->bits && (load8(line + 16) & e->m[2]) == e->w[2];
#else
    return (load8(line) & e->m[0]) == e->w[0] && (load8(line + 8) & e->m[1]) == e->w[1] &&
           (load8(line + 16) & e->m[2]) == e->w[2];
#endif
}

/* The entry of the mnemonic seen before that a padded line starts with (at its first byte: no blanks
 * before it), or NULL. */
static inline const mn_entry_t *mn_known(const mn_entry_t *mc, const char *line)
{
    const mn_entry_t *e = &mc[mn_slot(line)];
    return mn_entry_has(e, line) ? e : mn_entry_has(e + 1, line) ? e + 1 : NULL;
}

/* Remember that the line's first token, line[0, n), is a mnemonic (line[n], in the line, ends it). */
static void mn_learn(mn_entry_t *mc, const char *line, size_t n)
{
    uint8_t bytes[8 * MC_WORDS] = {0};
    if (n + 1 > sizeof bytes)
        return;
    mn_entry_t *e = &mc[mn_slot(line)];
    e[1] = e[0];
    memset(bytes, 0xff, n + 1);
    memcpy(e->m, bytes, sizeof bytes);
    for (int i = 0; i < MC_WORDS; i++)
        e->w[i] = load8(line + 8 * i) & e->m[i];
    e->bits = n + 1 >= 16 ? 0xFFFFu : (1u << (n + 1)) - 1;
    e->n = (uint32_t)n + 1;
}

/* The scan's common case, in a block: instruction lines whose mnemonic mn_known remembers are read
 * here, up to the first line that needs the general steps (or is not whole in the buffer). */
#if defined(__SSE2__)
/* The newlines of a padded reader's bytes [at, at + 64), a bit each (64 bytes are readable at any at
 * before lim: READ_SLACK; the bits of those past lim mean nothing, the caller stops at lim). */
static inline uint64_t newline_bits(const char *at)
{
    const __m128i nl = _mm_set1_epi8('\n');
#define NL16(i) ((uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(at + 16 * i)), nl)) << 16 * i)
    return NL16(0) | NL16(1) | NL16(2) | NL16(3);
#undef NL16
}
#endif

#if defined(__SSE2__)
/* A kernel's loop repeats its lines, so the scan learns its period from the lines it reads one at a
 * time (each line's entry and length; `seen`: the last line with the same pair) until the last 2P
 * lines are one sequence of P twice (P <= SP_LINES, D bytes <= SP_BYTES, within the read buffer).
 * Then each next D bytes are compared with the D before them at once: where they differ (offsets,
 * ids), neither may be a newline nor a byte of a line's token or the byte after it (`keep`: a byte
 * each), so the newlines are where they were and each line starts with the token and byte that the
 * line P lines earlier starts with, which is what the line-at-a-time loop would have found (its
 * result depends on those bytes only).  A period that differs anywhere else goes back to that loop,
 * which finds any error where it is.  A file's read buffer that ends in the next period is refilled
 * with the period before kept in front of the new bytes (reader_fill_hist), so the repeats go on
 * from one buffer to the next: the period is learned once per run of repeats, not once per buffer. */

#define SP_LD(x) _mm_loadu_si128((const __m128i *)(const void *)(x))
/* The bytes of the 64 at q that differ from the bytes d before them and are a newline or kept
 * (keep: theirs), a bit each. */
static inline uint64_t sp_bad64(const char *q, size_t d, const uint8_t *keep)
{
    const __m128i nl = _mm_set1_epi8('\n');
    uint64_t bad = 0;
    for (int i = 0; i < 4; i++) {
        const __m128i c = SP_LD(q + 16 * i);
        const __m128i m =
            _mm_or_si128(_mm_cmpeq_epi8(c, nl), _mm_load_si128((const __m128i *)(const void *)(keep + 16 * i)));
        bad |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_andnot_si128(_mm_cmpeq_epi8(c, SP_LD(q + 16 * i - d)), m))
               << 16 * i;
    }
    return bad;
}
#undef SP_LD

/* Do the D bytes at p have their newlines and kept bytes where the D bytes before them have (keep:
 * D bytes, and zero to a multiple of 64)?  Most of a period is the text of the one before it, so 64
 * bytes are compared at once, and only 64 that differ somewhere are looked at byte by byte. */
static inline bool sp_repeats(const char *p, size_t d, const uint8_t *keep)
{
    const __m128i nl = _mm_set1_epi8('\n');
    size_t o = 0;
    for (; o + 64 <= d; o += 64) {
        const char *const q = p + o;
#define SP_LD(x) _mm_loadu_si128((const __m128i *)(const void *)(x))
#define SP_KEEP(i) _mm_load_si128((const __m128i *)(const void *)(keep + o + 16 * (i)))
        const __m128i c0 = SP_LD(q), c1 = SP_LD(q + 16), c2 = SP_LD(q + 32), c3 = SP_LD(q + 48);
        const __m128i e0 = _mm_cmpeq_epi8(c0, SP_LD(q - d)), e1 = _mm_cmpeq_epi8(c1, SP_LD(q + 16 - d));
        const __m128i e2 = _mm_cmpeq_epi8(c2, SP_LD(q + 32 - d)), e3 = _mm_cmpeq_epi8(c3, SP_LD(q + 48 - d));
        if (_mm_movemask_epi8(_mm_and_si128(_mm_and_si128(e0, e1), _mm_and_si128(e2, e3))) == 0xFFFF)
            continue;
        /* where they differ (the same bytes compared again would cost as much as the compare) */
        const __m128i b0 = _mm_andnot_si128(e0, _mm_or_si128(_mm_cmpeq_epi8(c0, nl), SP_KEEP(0)));
        const __m128i b1 = _mm_andnot_si128(e1, _mm_or_si128(_mm_cmpeq_epi8(c1, nl), SP_KEEP(1)));
        const __m128i b2 = _mm_andnot_si128(e2, _mm_or_si128(_mm_cmpeq_epi8(c2, nl), SP_KEEP(2)));
        const __m128i b3 = _mm_andnot_si128(e3, _mm_or_si128(_mm_cmpeq_epi8(c3, nl), SP_KEEP(3)));
        if (_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(b0, b1), _mm_or_si128(b2, b3))))
            return false;
#undef SP_KEEP
#undef SP_LD
    }
    /* the last bytes: those past p + d are the next period's */
    return o == d || (sp_bad64(p + o, d, keep + o) & ((1ull << (d - o)) - 1)) == 0;
}

#if HAVE_WIDE
/* sp_repeats in 64 bytes a step of two 32-byte compares (wide_ok). */
static WIDE bool sp_repeats_wide(const char *p, size_t d, const uint8_t *keep)
{
    const __m256i nl = _mm256_set1_epi8('\n');
    size_t o = 0;
    for (; o + 64 <= d; o += 64) {
        const char *const q = p + o;
#define SP_LD(x) _mm256_loadu_si256((const __m256i *)(const void *)(x))
        const __m256i c0 = SP_LD(q), c1 = SP_LD(q + 32);
        const __m256i e0 = _mm256_cmpeq_epi8(c0, SP_LD(q - d)), e1 = _mm256_cmpeq_epi8(c1, SP_LD(q + 32 - d));
        if ((uint32_t)_mm256_movemask_epi8(_mm256_and_si256(e0, e1)) == UINT32_MAX)
            continue;
        const __m256i b0 = _mm256_andnot_si256(e0, _mm256_or_si256(_mm256_cmpeq_epi8(c0, nl), SP_LD(keep + o)));
        const __m256i b1 = _mm256_andnot_si256(e1, _mm256_or_si256(_mm256_cmpeq_epi8(c1, nl), SP_LD(keep + o + 32)));
        if (_mm256_movemask_epi8(_mm256_or_si256(b0, b1)))
            return false;
#undef SP_LD
    }
    return o == d || (sp_bad64(p + o, d, keep + o) & ((1ull << (d - o)) - 1)) == 0;
}
#endif

/* sp_repeats, or sp_repeats_wide when wide (wide_ok()). */
static inline bool sp_repeats_as(const char *p, size_t d, const uint8_t *keep, bool wide)
{
#if HAVE_WIDE
    if (wide)
        return sp_repeats_wide(p, d, keep);
#else
    (void)wide;
#endif
    return sp_repeats(p, d, keep);
}
#endif

static void scan_known_lines(reader_t *r, const mn_entry_t *mc)
{
    const char *p = r->cur, *lim = r->lim;
    /* where the lines read here end: the end of the text, or its first NUL byte (a line with one goes
     * the general way, which reports it) */
    const char *const stop = r->nul && r->nul < lim ? r->nul : lim;
    uint32_t lines = 0;
    const mn_entry_t *e;
#if defined(__SSE2__)
    /* Each line's newline from a bit mask of the 64 bytes at `at` (the bits of the lines taken
     * cleared): a call of memchr per line cost more than its search of a line of forty bytes.  With
     * no NUL in the buffer, a newline found is before lim (the bytes past it are zero: READ_SLACK),
     * and a line is shorter than READ_BUF_BYTES when the window its newline is in ends at most that
     * far from its start, so both are checked only when a window is loaded. */
    if (stop < lim)
        return;
    const char *at = p;
    uint64_t bits = p < lim ? newline_bits(at) : 0;
    /* the period's learning: line i (of this call) at h_s[i % SP_HIST] matched h_e[..] */
    const mn_entry_t *h_e[SP_HIST];
    const char *h_s[SP_HIST];
    uint32_t seen[SP_SEEN] = {0}; /* a line's (entry, length) -> 1 + its i */
    uint32_t i = 0, cand = 0, run = 0;
    _Alignas(16) uint8_t keep[SP_BYTES + 64];
    const bool wide = wide_ok();
#endif
    /* A line's token is checked before its newline is looked for: the bytes mn_known matches are
     * the line's (its token and the blank after it hold no newline and no NUL; at lim the NUL there
     * matches no token), so a line needs neither its length nor its CR. */
    while ((e = mn_known(mc, p))) {
#if defined(__SSE2__)
        while (!bits) {
            if (at + 64 >= lim || (size_t)(at + 128 - p) > READ_BUF_BYTES)
                goto out;
            bits = newline_bits(at += 64);
        }
        const char *nl = at + __builtin_ctzll(bits);
        bits &= bits - 1;
        /* learn the period: a line like the one cand lines earlier extends the run, else the last
         * line like it (at most SP_LINES earlier) starts one */
        const size_t len = (size_t)(nl + 1 - p);
        h_e[i % SP_HIST] = e;
        h_s[i % SP_HIST] = p;
        const size_t k = (size_t)(((uintptr_t)e >> 3) ^ len ^ (len >> 6)) % SP_SEEN;
        if (cand && h_e[(i - cand) % SP_HIST] == e &&
            (size_t)(h_s[(i - cand + 1) % SP_HIST] - h_s[(i - cand) % SP_HIST]) == len) {
            run++;
        } else {
            const uint32_t j = seen[k];
            cand = run = 0;
            if (j && i - (j - 1) <= SP_LINES && h_e[(j - 1) % SP_HIST] == e &&
                (size_t)(h_s[j % SP_HIST] - h_s[(j - 1) % SP_HIST]) == len) {
                cand = i - (j - 1);
                run = 1;
            }
        }
        seen[k] = i + 1;
        i++;
        p = nl + 1;
        lines++;
        if (run == cand && cand) {
            /* the last 2 * cand lines repeat: [p - d, p) is a period */
            const char *q = h_s[(i - cand) % SP_HIST];
            const size_t d = (size_t)(p - q);
            if (d <= SP_BYTES) {
                memset(keep, 0, (d + 63) & ~(size_t)63);
                for (uint32_t l = i - cand; l != i; l++) {
                    const char *s0 = h_s[l % SP_HIST], *s1 = l + 1 == i ? p : h_s[(l + 1) % SP_HIST];
                    memset(keep + (s0 - q), 0xff, h_e[l % SP_HIST]->n);
                    keep[s1 - 1 - q] = 0xff;
                }
                const char *const p0 = p;
                bool moved = false;
                for (;;) {
                    while (p + d <= lim && sp_repeats_as(p, d, keep, wide)) {
                        p += d;
                        lines += cand;
                    }
                    if (p + d <= lim || !r->fp || r->eof)
                        break; /* a period that differs, or the text's end */
                    /* the read buffer ends in the next period: refilled with the period before p
                     * kept in front, the repeats go on (a failed read is the next refill's error, so
                     * the line that meets it reports it) */
                    r->off += (uint64_t)(p - r->cur);
                    r->line += lines;
                    r->cur = p;
                    lines = 0;
                    if (reader_fill_hist(r, d) != 0) {
                        r->pending_io = true;
                        r->pending_errno = errno;
                        return;
                    }
                    if (r->nul) /* a NUL byte: the general way reports it */
                        return;
                    p = r->cur;
                    lim = r->lim;
                    moved = true;
                }
                if (p != p0 || moved) { /* on from p a line at a time, the period learned again */
                    at = p;
                    bits = newline_bits(at);
                    i += SP_HIST;
                    cand = run = 0;
                }
            } else {
                cand = run = 0;
            }
        }
#else
        const char *nl = memchr(p, '\n', (size_t)(lim - p));
        if (!nl || nl >= stop || (size_t)(nl - p) >= READ_BUF_BYTES)
            break;
        p = nl + 1;
        lines++;
#endif
    }
#if defined(__SSE2__)
out:
#endif
    r->off += (uint64_t)(p - r->cur);
    r->line += lines;
    r->cur = p;
}

/* Read the whole trace once: header, block index, first token of every instruction.  header_only:
 * the text ends after the arguments (the header a binary trace embeds); a block line is an error. */
static int trace_scan(trace_kernel_t *tk, reader_t *r, bool header_only, dv_error_t *err)
{
    enum scan_state st = SCAN_VERSION;
    mn_entry_t mc[MC_SLOTS];
    for (int i = 0; i < MC_SLOTS; i++) /* empty: a first word no line has (bytes masked to 0, equal to 1) */
        mc[i] = (mn_entry_t){.w = {1}, .bits = 1u << 16};
    const char *line = NULL; /* (set when reader_next returns 1) */
    size_t len = 0;
    int rc;
    r->find_nul = true;
    r->nul = r->cur < r->lim ? memchr(r->cur, '\0', (size_t)(r->lim - r->cur)) : NULL;
    for (;;) {
        if (st == SCAN_BLOCKS && r->padded)
            scan_known_lines(r, mc);
        if ((rc = reader_next(r, &line, &len)) <= 0)
            break;
        if (r->nul && r->nul < line + len) /* in this line: the earlier ones had none */
            return dv_error_set(err, DV_ERR_PARSE, tk->source, (int)r->line, (int)(r->nul - line) + 1,
                                "a NUL byte: a trace is text (is this a binary file?)");
        size_t pos = 0;
        tok_t t, v;
        where_t w = {tk->source, (int)r->line};
        bool any = tok_next(line, len, &pos, &t);
        if (st == SCAN_VERSION) {
            if (!any)
                return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, 1,
                                    "expected 'dvtrace %d' on the first line, got an empty line", DV_TRACE_VERSION);
            if (!tok_is(t, "dvtrace"))
                return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, t),
                                    "expected 'dvtrace %d' on the first line, got '%.*s'", DV_TRACE_VERSION, TOKQ(t));
            if (!tok_next(line, len, &pos, &v))
                return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_end_col(line, t),
                                    "expected a version number after 'dvtrace'");
            uint64_t ver = 0;
            if (dv_trace_parse_u64(v.s, v.n, &ver) != 0)
                return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, v),
                                    "expected a version number, got '%.*s'", TOKQ(v));
            if (ver != DV_TRACE_VERSION)
                return dv_error_set(err, DV_ERR_UNSUPPORTED, w.file, w.line, tok_col(line, v),
                                    "unsupported trace version %.*s (this reader reads version %d)", TOKQ(v),
                                    DV_TRACE_VERSION);
            if (tok_next(line, len, &pos, &v))
                return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, v), "unexpected '%.*s' after the version",
                                    TOKQ(v));
            st = SCAN_KERNEL;
            continue;
        }
        if (!any)
            continue;
        switch (st) {
        case SCAN_KERNEL:
            if (!tok_is(t, "kernel"))
                return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, t),
                                    "expected 'kernel NAME kind=vector|cube|mix blocks=N', got '%.*s'", TOKQ(t));
            if ((rc = scan_kernel_line(tk, line, len, pos, t, w, err)))
                return rc;
            st = SCAN_ARGS;
            break;
        case SCAN_ARGS:
            if (tok_is(t, "arg")) {
                if ((rc = scan_arg_line(tk, line, len, pos, t, w, err)))
                    return rc;
                break;
            }
            if (tok_is(t, "block") && !header_only) {
                if ((rc = scan_block_line(tk, line, len, pos, t, r, w, err)))
                    return rc;
                st = SCAN_BLOCKS;
                break;
            }
            if (header_only)
                return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, t),
                                    "expected 'arg NAME bytes=N ...' in a binary trace's header, got '%.*s'", TOKQ(t));
            if (dv_trace_op_find(t.s, t.n) != DV_OP_INVALID)
                return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, t),
                                    "instruction '%.*s' before the first block (expected 'block 0')", TOKQ(t));
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, t),
                                "expected 'arg NAME bytes=N ...' or 'block B', got '%.*s'", TOKQ(t));
        case SCAN_BLOCKS:
            if (tok_is(t, "block")) {
                if ((rc = scan_block_line(tk, line, len, pos, t, r, w, err)))
                    return rc;
            } else if (tok_is(t, "end")) {
                if ((rc = scan_end_line(tk, line, len, pos, t, w, err)))
                    return rc;
                st = SCAN_DONE;
            } else if (tok_is(t, "arg") || tok_is(t, "kernel") || tok_is(t, "dvtrace")) {
                return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, t),
                                    "'%.*s' belongs to the header, before the first block", TOKQ(t));
            } else if (dv_trace_op_find(t.s, t.n) == DV_OP_INVALID) {
                return dv_error_set(err, DV_ERR_UNKNOWN, w.file, w.line, tok_col(line, t), "unknown mnemonic '%.*s'",
                                    TOKQ(t));
            } else if (r->padded && t.s == line && t.n < len) {
                mn_learn(mc, line, t.n);
            }
            break;
        case SCAN_DONE:
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, t), "unexpected '%.*s' after 'end'",
                                TOKQ(t));
        case SCAN_VERSION:
            break;
        }
    }
    if (rc < 0)
        return reader_error(r, rc, tk->source, err);
    if (header_only && st == SCAN_ARGS)
        return DV_OK;
    static const char *const expected[] = {"'dvtrace 1'", "'kernel NAME kind=... blocks=N'", "'block 0'", "'end'"};
    if (st != SCAN_DONE)
        return dv_error_set(err, DV_ERR_PARSE, tk->source, (int)r->line + 1, 1, "expected %s, got end of file",
                            expected[st]);
    return DV_OK;
}

static trace_kernel_t *kernel_new(const char *source)
{
    trace_kernel_t *tk = calloc(1, sizeof *tk);
    if (!tk)
        return NULL;
    tk->source = malloc(strlen(source) + 1);
    if (!tk->source) {
        free(tk);
        return NULL;
    }
    strcpy(tk->source, source);
    tk->refs = 1;
    tk->k.open = trace_stream_open;
    tk->k.impl = tk;
    return tk;
}

int dv_trace_open(const char *path, dv_kernel_t **out, dv_error_t *err)
{
    trace_kernel_t *tk = NULL;
    reader_t r = {0};
    int rc = DV_OK;
    *out = NULL;
    dv_trace_names_init();
    if ((rc = dv_open_regular(path, NULL, &r.fp, err)) != DV_OK)
        return rc;
    setvbuf(r.fp, NULL, _IONBF, 0);
    r.buf = malloc(SP_BYTES + READ_BUF_BYTES + READ_SLACK); /* SP_BYTES: reader_fill_hist's */
    r.padded = true;
    tk = kernel_new(path);
    if (!r.buf || !tk) {
        rc = dv_error_set(err, DV_ERR_NOMEM, path, 0, 0, "out of memory");
        goto cleanup;
    }
    memset(r.buf, 0, 1 + READ_SLACK); /* the byte read first and the slack after it (then reader_fill's) */
    r.cur = r.lim = r.buf;
    /* the first byte tells the formats apart: no text trace starts with the binary magic's */
    r.lim += fread(r.buf, 1, 1, r.fp);
    if (r.lim > r.buf && (uint8_t)r.buf[0] == DV_TRACE_BINARY_BYTE0) {
        rc = dv_trace_binary_open_file(r.fp, path, out, err);
        goto cleanup;
    }
    rc = trace_scan(tk, &r, false, err);
    if (rc)
        goto cleanup;
    *out = &tk->k;
    tk = NULL;
cleanup:
    if (tk)
        kernel_unref(tk);
    free(r.buf);
    fclose(r.fp);
    return rc;
}

int dv_trace_header_parse(const char *text, size_t len, const char *file, dv_kernel_info_t *info, int *kind_line,
                          int *kind_col, dv_error_t *err)
{
    reader_t r = {.cur = text, .lim = text + len};
    memset(info, 0, sizeof *info);
    trace_kernel_t *tk = kernel_new(file);
    if (!tk)
        return dv_error_set(err, DV_ERR_NOMEM, file, 0, 0, "out of memory");
    int rc = trace_scan(tk, &r, true, err);
    if (rc == DV_OK) {
        *info = tk->k.info;
        *kind_line = tk->kind_line;
        *kind_col = tk->kind_col;
        tk->k.info.args = NULL; /* now the caller's */
    }
    kernel_unref(tk);
    return rc;
}

/* A text trace held in memory: copied, then scanned as a file is. */
static int open_text(const char *data, size_t len, const char *name, dv_kernel_t **out, dv_error_t *err)
{
    reader_t r = {0};
    int rc = DV_OK;
    dv_trace_names_init();
    trace_kernel_t *tk = kernel_new(name);
    if (!tk || !(tk->text = malloc(len + 1 + READ_SLACK))) {
        rc = dv_error_set(err, DV_ERR_NOMEM, name, 0, 0, "out of memory");
        goto cleanup;
    }
    tk->text_len = len;
    if (len)
        memcpy(tk->text, data, len);
    memset(tk->text + len, 0, 1 + READ_SLACK);
    r.cur = tk->text;
    r.padded = true;
    r.lim = tk->text + len;
    if ((rc = trace_scan(tk, &r, false, err)) != DV_OK)
        goto cleanup;
    *out = &tk->k;
    tk = NULL;
cleanup:
    if (tk)
        kernel_unref(tk);
    return rc;
}

int dv_trace_open_bytes(const void *data, size_t len, const char *name, dv_kernel_t **out, dv_error_t *err)
{
    *out = NULL;
    if (!name)
        name = "<bytes>";
    if (len && *(const uint8_t *)data == DV_TRACE_BINARY_BYTE0)
        return dv_trace_binary_open_bytes(data, len, name, out, err);
    return open_text(data, len, name, out, err);
}

int dv_trace_open_string(const char *text, const char *name, dv_kernel_t **out, dv_error_t *err)
{
    *out = NULL;
    return open_text(text, strlen(text), name ? name : "<string>", out, err);
}
