/* base/file.c - a regular file opened, or read whole into memory (dv/file.h). */
#define _DEFAULT_SOURCE
#include "dv/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *file_kind(mode_t m)
{
    return S_ISFIFO(m) ? "a FIFO" : S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device"
           : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a file";
}

int dv_open_regular(const char *path, const char *what, FILE **out, dv_error_t *err)
{
    const char *sep = what ? " " : "", *name = what ? what : "";
    struct stat st;
    *out = NULL;
    /* O_NONBLOCK: opening a FIFO without a writer must not wait for one */
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return dv_error_set(err, DV_ERR_IO, path, 0, 0, "cannot open%s%s: %s", sep, name, strerror(errno));
    if (fstat(fd, &st) != 0) {
        const int e = errno;
        close(fd);
        return dv_error_set(err, DV_ERR_IO, path, 0, 0, "cannot open%s%s: %s", sep, name, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return dv_error_set(err, DV_ERR_IO, path, 0, 0, "cannot read%s%s: it is not a regular file (%s)", sep, name,
                            file_kind(st.st_mode));
    }
    const int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    if (!(*out = fdopen(fd, "rb"))) {
        const int e = errno;
        close(fd);
        return dv_error_set(err, DV_ERR_IO, path, 0, 0, "cannot open%s%s: %s", sep, name, strerror(e));
    }
    return DV_OK;
}

const char *dv_open_reason(const dv_error_t *err)
{
    const char *colon = strstr(err->msg, ": ");
    return colon ? colon + 2 : err->msg;
}

int dv_read_file(const char *path, const char *what, char **text, size_t *len, dv_error_t *err)
{
    const char *sep = what ? " " : "", *name = what ? what : "";
    size_t cap = 0;
    int rc = DV_OK;
    *text = NULL;
    *len = 0;
    FILE *f;
    if ((rc = dv_open_regular(path, what, &f, err)) != DV_OK)
        return rc;
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

/* ---------------------------------------------------------------- outputs */

int dv_out_open(dv_out_t *o, const char *path, const char *what, dv_error_t *err)
{
    struct stat st;
    memset(o, 0, sizeof *o);
    o->path = path;
    o->what = what;
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
        return DV_OK;
    }
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) { /* a device or a FIFO: written in place */
        if (!(o->f = fopen(path, "wb")))
            return dv_error_set(err, DV_ERR_IO, path, 0, 0, "cannot write %s: %s", what, strerror(errno));
        return DV_OK;
    }
    const size_t n = strlen(path);
    if (!(o->tmp = malloc(n + 16)))
        return dv_error_set(err, DV_ERR_NOMEM, path, 0, 0, "out of memory");
    snprintf(o->tmp, n + 16, "%s.tmp-XXXXXX", path);
    const int fd = mkstemp(o->tmp);
    if (fd < 0) {
        const int e = errno;
        free(o->tmp);
        o->tmp = NULL;
        return dv_error_set(err, DV_ERR_IO, path, 0, 0, "cannot write %s: %s", what, strerror(e));
    }
    const mode_t mask = umask(0); /* the final file gets the mode a new file would have */
    umask(mask);
    (void)fchmod(fd, 0666 & ~mask);
    if (!(o->f = fdopen(fd, "wb"))) {
        const int e = errno;
        close(fd);
        unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
        return dv_error_set(err, DV_ERR_IO, path, 0, 0, "cannot write %s: %s", what, strerror(e));
    }
    return DV_OK;
}

int dv_out_close(dv_out_t *o, int rc, dv_error_t *err)
{
    if (!o->f)
        return rc;
    errno = 0;
    int bad = fflush(o->f) != 0 || ferror(o->f);
    int e = errno;
    if (o->f != stdout && fclose(o->f) != 0 && !bad)
        bad = 1, e = errno;
    if (bad && rc == DV_OK)
        rc = dv_error_set(err, DV_ERR_IO, o->path, 0, 0, "writing %s failed: %s", o->what,
                          e ? strerror(e) : "write error");
    if (o->tmp) {
        if (rc == DV_OK && rename(o->tmp, o->path) != 0)
            rc = dv_error_set(err, DV_ERR_IO, o->path, 0, 0, "writing %s failed: %s", o->what, strerror(errno));
        if (rc != DV_OK)
            unlink(o->tmp);
        free(o->tmp);
    }
    memset(o, 0, sizeof *o);
    return rc;
}
