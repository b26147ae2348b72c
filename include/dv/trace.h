/* dv/trace.h - the versioned trace formats (traces/FORMAT.md): text, and its compact binary form
 * (section 10); reader and writers. */
#ifndef DV_TRACE_H
#define DV_TRACE_H

#include <stddef.h>
#include <stdio.h>

#include "dv/config.h"
#include "dv/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DV_TRACE_VERSION 1
/* Version of the binary form (its own number: traces/FORMAT.md section 10). */
#define DV_TRACE_BINARY_VERSION 1

typedef enum dv_trace_form { DV_TRACE_TEXT, DV_TRACE_BINARY } dv_trace_form_t;

/* Open a trace file, text or binary (told apart by the binary magic): reads the header and indexes
 * where each block's stream starts; the instructions are parsed (text) or decoded (binary, from a
 * memory map) lazily as the model reads them, so memory does not grow with the trace.  Header and
 * structure errors are reported here: text with file:line:column, binary with the byte offset. */
int dv_trace_open(const char *path, dv_kernel_t **out, dv_error_t *err);
/* The same from text in memory (copied); `name` is used in messages. */
int dv_trace_open_string(const char *text, const char *name, dv_kernel_t **out, dv_error_t *err);
/* The same from len bytes in memory (copied), text or binary. */
int dv_trace_open_bytes(const void *data, size_t len, const char *name, dv_kernel_t **out, dv_error_t *err);
void dv_trace_close(dv_kernel_t *k);
/* Whether the kernel can run on the profile (dv_topo_check_kernel: a mix kernel needs a split chip
 * and as many AIV sub-streams per block as chip.aiv_per_core); for a trace the error is located at
 * the kernel line's kind= field. */
int dv_trace_check_profile(const dv_kernel_t *k, const dv_config_t *cfg, dv_error_t *err);

/* Parse one instruction line (no newline).  info supplies the GM argument names. */
int dv_trace_parse_insn(const char *line, size_t len, const dv_kernel_info_t *info, const char *file,
                        int lineno, dv_insn_t *out, dv_error_t *err);
/* Canonical text of an instruction (every field, in table order); returns the length, or -1 when
 * cap is too small. */
int dv_trace_format_insn(const dv_insn_t *insn, const dv_kernel_info_t *info, char *buf, size_t cap);

/* Writer: header, then for each block/sub a marker followed by its instructions. */
int dv_trace_write_header(FILE *out, const dv_kernel_info_t *info);
int dv_trace_write_block(FILE *out, const dv_kernel_info_t *info, uint32_t block, uint32_t sub);
int dv_trace_write_insn(FILE *out, const dv_kernel_info_t *info, const dv_insn_t *insn);
int dv_trace_write_end(FILE *out);

/* Write kernel k (any dv_kernel_t: a trace of either form, a C kernel) to path in `form`, every
 * block and sub-stream in order, through dv_out_t (the file is whole or absent).  Instruction lines
 * (dv_insn_t.line) are kept in the binary form; 0 (generated) becomes the line canonical text would
 * give it.  Errors name path; a stream's own error is passed through. */
int dv_trace_save(dv_kernel_t *k, const char *path, dv_trace_form_t form, dv_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
