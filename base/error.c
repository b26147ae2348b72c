/* base/error.c - the error record shared by every module (include/dv/error.h). */
#include "dv/error.h"

#include <stdio.h>
#include <string.h>

int dv_error_set(dv_error_t *err, int code, const char *file, int line, int col, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        err->code = code;
        snprintf(err->file, sizeof err->file, "%s", file ? file : "");
        err->line = line;
        err->col = col;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

void dv_error_print(const dv_error_t *err, void *file)
{
    FILE *f = file;
    if (!err)
        return;
    if (err->file[0] && err->line > 0 && err->col > 0)
        fprintf(f, "%s:%d:%d: error: %s\n", err->file, err->line, err->col, err->msg);
    else if (err->file[0] && err->line > 0)
        fprintf(f, "%s:%d: error: %s\n", err->file, err->line, err->msg);
    else if (err->file[0])
        fprintf(f, "%s: error: %s\n", err->file, err->msg);
    else
        fprintf(f, "error: %s\n", err->msg);
}
