/* dv/error.h - status codes and the caller-owned error record used by every module. */
#ifndef DV_ERROR_H
#define DV_ERROR_H

#include <stdarg.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes: 0 is success, every failure is negative. */
enum {
    DV_OK = 0,
    DV_ERR_IO = -1,       /* file cannot be opened or read */
    DV_ERR_PARSE = -2,    /* malformed trace / YAML / argument */
    DV_ERR_RANGE = -3,    /* value out of range, misaligned, out of a buffer */
    DV_ERR_UNKNOWN = -4,  /* unknown name (mnemonic, key, profile, option) */
    DV_ERR_DEADLOCK = -5, /* nothing can progress */
    DV_ERR_NOMEM = -6,
    DV_ERR_STATE = -7,    /* call not allowed in the current state */
    DV_ERR_UNSUPPORTED = -8,
    DV_ERR_USAGE = -9     /* a command line is incomplete (an option without its value) */
};

/* Where something went wrong and why.  file may be empty; line/col are 1-based, 0 = unknown. */
typedef struct dv_error {
    int code;
    char file[256];
    int line;
    int col;
    char msg[768];
} dv_error_t;

/* Fill err (which may be NULL) and return code.  Formats like printf. */
int dv_error_set(dv_error_t *err, int code, const char *file, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Print "file:line:col: error: msg" (or "error: msg") to a stream-like FILE*. */
void dv_error_print(const dv_error_t *err, void *file);

#ifdef __cplusplus
}
#endif
#endif
