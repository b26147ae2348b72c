/* dv/file.h - a whole file read into memory, with the error that names it: the one reader of the
 * profile loader, the graph reader, the sweep and the plot. */
#ifndef DV_FILE_H
#define DV_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "dv/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Open path for reading into *out when it is a regular file: a FIFO, device or directory is refused
 * ("cannot read WHAT: it is not a regular file (a FIFO)", located at path) before anything blocks on
 * it or reads it without end.  DV_OK, or the status with *out NULL and *err set. */
int dv_open_regular(const char *path, const char *what, FILE **out, dv_error_t *err);
/* The reason in such an error (its message after "cannot open ...: " or "cannot read ...: "), for
 * a caller that says what the file was for in a message of its own. */
const char *dv_open_reason(const dv_error_t *err);

/* An output file written whole or not at all: a regular file (or a new one) is written to a
 * temporary beside it and renamed over it when closed with success; anything else ("-" = stdout,
 * /dev/null, a FIFO) is written directly.  `what` names the contents in messages ("the JSON
 * report"). */
typedef struct dv_out {
    FILE *f;
    const char *path, *what;
    char *tmp;          /* the temporary's path, NULL when written directly */
} dv_out_t;
int dv_out_open(dv_out_t *o, const char *path, const char *what, dv_error_t *err);
/* Finish o (a no-op when it was never opened): with rc == DV_OK and every write done, the file takes
 * its place; otherwise the temporary is removed.  Returns rc, or the located error of the first
 * failed write ("writing WHAT failed: REASON"). */
int dv_out_close(dv_out_t *o, int rc, dv_error_t *err);

/* Read the file at path into *text (malloc'ed, NUL-terminated; *len bytes before the NUL).
 * Errors are located at the path: "cannot open WHAT: <reason>" ("cannot open: <reason>" when
 * what is NULL), the same for reading; *text is NULL then. */
int dv_read_file(const char *path, const char *what, char **text, size_t *len, dv_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
