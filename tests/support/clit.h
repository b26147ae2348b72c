/* tests/support/clit.h - running the dvsim program from a test suite (check_cli.c, check_plot.c):
 * a scratch directory per test, the command's exit status, its stdout and stderr.  The program is
 * $DVSIM (e.g. a sanitizer build), else bin/dvsim under $DVSIM_ROOT (both set by make test). */
#ifndef DV_TESTS_CLIT_H
#define DV_TESTS_CLIT_H

#include <stddef.h>

extern char clit_tmp[64];             /* this test's scratch directory ($T in commands) */
#define CLIT_CAP (1u << 20)             /* bytes captured of each stream */
extern char clit_out[CLIT_CAP], clit_err[CLIT_CAP]; /* the last command's stdout and stderr */

const char *clit_root(void);          /* $DVSIM_ROOT, else "." */
const char *clit_program(void);       /* $DVSIM, else bin/dvsim */
/* Check fixture: a fresh scratch directory named after `prefix`, removed afterwards. */
void clit_setup_named(const char *prefix);
void clit_teardown(void);
/* A file's first cap - 1 bytes as text (empty when it cannot be read); 1 when that is all of it. */
int clit_slurp(const char *path, char *buf, size_t cap);
/* Write `text` to clit_tmp/name (the test fails when it cannot). */
void clit_write(const char *name, const char *text);
/* Run "dvsim ARGS" in the project root with $T the scratch directory; ARGS may go on with shell
 * commands ("... && cat $T/x"); the status is the whole line's; stdout and stderr land in clit_out
 * and clit_err (the test fails when either is longer than CLIT_CAP - 1 bytes). */
int clit_dvsim(const char *args);

#endif
