/* dv/file.h - a whole file read into memory, with the error that names it: the one reader of the
 * profile loader, the graph reader, the sweep and the plot. */
#ifndef DV_FILE_H
#define DV_FILE_H

#include <stddef.h>

#include "dv/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Read the file at path into *text (malloc'ed, NUL-terminated; *len bytes before the NUL).
 * Errors are located at the path: "cannot open WHAT: <reason>" ("cannot open: <reason>" when
 * what is NULL), the same for reading; *text is NULL then. */
int dv_read_file(const char *path, const char *what, char **text, size_t *len, dv_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
