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

/* Open path for reading when it is a regular file: a FIFO, device or directory is refused ("WHAT
 * 'PATH' is not a regular file (a FIFO)") before anything blocks on it or reads it without end.
 * NULL with *err set otherwise. */
FILE *dv_open_regular(const char *path, const char *what, dv_error_t *err);

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
