/* tests/support/nnt.h - what the aclnn suites (tests/check_aclnn_*.c) share: the fixture (aclInit,
 * device 0, a stream), device tensors made from host data, the status checks and numeric
 * comparisons. */
#ifndef NNT_H
#define NNT_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/aclnn_base.h"

/* The aclnnStatus codes (documented values; not in the public headers). */
enum { NN_NULLPTR = 161001, NN_INVALID = 161002, NN_RUNTIME = 361001 };

/* The status and the recent error message of a call; the message names the status returned. */
#define CK_ERR(expr, code, text)                                                                                  \
    do {                                                                                                          \
        int rc_ = (int)(expr);                                                                                    \
        const char *m_ = aclGetRecentErrMsg();                                                                    \
        char code_[24];                                                                                           \
        snprintf(code_, sizeof code_, "[%d]", (int)(code));                                                       \
        ck_assert_msg(rc_ == (code), "%s returned %d, expected %d (%s)", #expr, rc_, (int)(code), m_ ? m_ : "");  \
        ck_assert_msg(m_ && strstr(m_, text), "%s: message '%s' lacks '%s'", #expr, m_ ? m_ : "(null)", text);   \
        ck_assert_msg(strstr(m_, code_), "%s: message '%s' does not say %s", #expr, m_, code_);                  \
    } while (0)

#define CK_OK(expr)                                                                                               \
    do {                                                                                                          \
        int rc_ = (int)(expr);                                                                                    \
        ck_assert_msg(rc_ == 0, "%s returned %d: %s", #expr, rc_, aclGetRecentErrMsg());                          \
    } while (0)

/* A device tensor: its allocation and its aclTensor. */
typedef struct nnt_dt {
    aclTensor *t;
    void *dev;
    size_t bytes;
} nnt_dt_t;

/* Run phase 2 and wait for the stream. */
#define RUN(call) do { CK_OK(call); CK_OK(aclrtSynchronizeStream(nnt_stream)); } while (0)


/* The stream of the current test (made by setup_profile). */
extern aclrtStream nnt_stream;

/* Unset the DVSIM_* variables a profile can come from. */
void nnt_env_clear(void);

/* Each test runs in its own process: init, device 0, a stream. */
void nnt_setup_profile(const char *profile);

/* The fixtures: nnt_setup (the default profile) and nnt_teardown (stream, device, aclFinalize). */
void nnt_teardown(void);
void nnt_setup(void);

/* Elements of a shape. */
int64_t nnt_numel(const int64_t *dims, int nd);

/* A contiguous tensor in a fresh allocation, filled from host (NULL: zeros). */
nnt_dt_t nnt_mk(const int64_t *dims, int nd, aclDataType dt, aclFormat fmt, const void *host);

/* Copy a device tensor to the host; destroy it and free its allocation. */
void nnt_rd(const nnt_dt_t *t, void *host);
void nnt_rm(nnt_dt_t *t);

/* Deterministic values in [lo, hi). */
void nnt_fill(float *v, int64_t n, unsigned seed, float lo, float hi);

/* fp16 round trips through the shim's own conversions. */
void nnt_to_f16(const float *f, uint16_t *h, int64_t n);

/* f rounded through fp16. */
float nnt_f16r(float f);

/* |got - want| <= atol + rtol |want| for every element. */
void nnt_ck_close(const char *what, const float *got, const double *want, int64_t n, double atol, double rtol);

/* Bytes per element of the dtypes the tests use. */
size_t nnt_dtype_size(aclDataType t);

#endif
