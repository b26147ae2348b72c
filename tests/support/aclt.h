/* tests/support/aclt.h - what the AscendCL shim's suites share: the OK / FAILS assertions on a
 * call's CANN error code and aclGetRecentErrMsg message, a session on device 0, lines of a file. */
#ifndef DV_TESTS_ACLT_H
#define DV_TESTS_ACLT_H

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"

#define OK(expr) ck_assert_int_eq((expr), ACL_SUCCESS)

/* The call fails with `code` and the recent message contains `needle`. */
#define FAILS(expr, code, needle)                                                                                      \
    do {                                                                                                               \
        int rc_ = (expr);                                                                                              \
        const char *m_ = aclGetRecentErrMsg();                                                                         \
        ck_assert_msg(rc_ == (code), "%s returned %d, want %d (%s)", #expr, rc_, (code), m_ ? m_ : "");               \
        ck_assert_msg(m_ && strstr(m_, needle), "%s: message '%s' lacks '%s'", #expr, m_ ? m_ : "(null)", needle);  \
    } while (0)

static inline void up(void)
{
    OK(aclInit(NULL));
    OK(aclrtSetDevice(0));
}

static inline void down(void)
{
    OK(aclrtResetDevice(0));
    OK(aclFinalize());
}

/* Lines of a text file (-1 when it cannot be opened). */
static inline int count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    int n = 0, c;
    if (!f)
        return -1;
    while ((c = fgetc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

#endif
