/* tests/support/clit.c - running the dvsim program from a test suite (clit.h). */
#define _DEFAULT_SOURCE /* mkdtemp */
#include "clit.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

char clit_tmp[64];
char clit_out[CLIT_CAP], clit_err[CLIT_CAP];

const char *clit_root(void)
{
    const char *r = getenv("DVSIM_ROOT");
    return r && r[0] ? r : ".";
}

const char *clit_program(void)
{
    const char *p = getenv("DVSIM");
    return p && p[0] ? p : "bin/dvsim";
}

void clit_setup_named(const char *prefix)
{
    snprintf(clit_tmp, sizeof clit_tmp, "/tmp/%s-XXXXXX", prefix);
    ck_assert_ptr_nonnull(mkdtemp(clit_tmp));
}

void clit_teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", clit_tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", clit_tmp);
}

int clit_slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
    buf[n] = '\0';
    const int more = f && fgetc(f) != EOF;
    if (f)
        fclose(f);
    return !more;
}

void clit_write(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", clit_tmp, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

int clit_dvsim(const char *args)
{
    char cmd[4096], out[128], err[128];
    snprintf(out, sizeof out, "%s/stdout", clit_tmp);
    snprintf(err, sizeof err, "%s/stderr", clit_tmp);
    snprintf(cmd, sizeof cmd, "cd '%s' && T='%s' && { '%s' %s ; } >'%s' 2>'%s'", clit_root(), clit_tmp,
             clit_program(), args, out, err);
    int st = system(cmd);
    ck_assert_msg(clit_slurp(out, clit_out, sizeof clit_out) && clit_slurp(err, clit_err, sizeof clit_err),
                  "dvsim %s: the output is larger than the %u bytes a test captures", args, CLIT_CAP - 1);
    ck_assert_msg(st != -1 && WIFEXITED(st), "dvsim did not exit normally: %s", cmd);
    return WEXITSTATUS(st);
}
