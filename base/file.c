/* base/file.c - a whole file read into memory (dv/file.h). */
#include "dv/file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dv_read_file(const char *path, const char *what, char **text, size_t *len, dv_error_t *err)
{
    const char *sep = what ? " " : "", *name = what ? what : "";
    size_t cap = 0;
    int rc = DV_OK;
    *text = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return dv_error_set(err, DV_ERR_IO, path, 0, 0, "cannot open%s%s: %s", sep, name, strerror(errno));
    for (;;) {
        if (*len + 4096 + 1 > cap) {
            const size_t ncap = cap ? cap * 2 : 16384;
            char *n = realloc(*text, ncap);
            if (!n) {
                rc = dv_error_set(err, DV_ERR_NOMEM, path, 0, 0, "out of memory reading%s%s", sep, name);
                goto cleanup;
            }
            *text = n;
            cap = ncap;
        }
        const size_t got = fread(*text + *len, 1, cap - *len - 1, f);
        *len += got;
        if (got == 0)
            break;
    }
    if (ferror(f))
        rc = dv_error_set(err, DV_ERR_IO, path, 0, 0, "cannot read%s%s: %s", sep, name, strerror(errno));
    else
        (*text)[*len] = '\0';
cleanup:
    if (rc != DV_OK) {
        free(*text);
        *text = NULL;
    }
    fclose(f);
    return rc;
}
