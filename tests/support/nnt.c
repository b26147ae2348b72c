/* tests/support/nnt.c - the shared fixture and helpers of the aclnn suites (see nnt.h). */
#include "nnt.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

/* ---------------------------------------------------------------- fixture and helpers */

aclrtStream nnt_stream;

void nnt_env_clear(void)
{
    unsetenv("DVSIM_PROFILE");
    unsetenv("DVSIM_CONFIG");
    unsetenv("DVSIM_PROFILE_OUT");
}

void nnt_setup_profile(const char *profile)
{
    nnt_env_clear();
    if (profile)
        setenv("DVSIM_PROFILE", profile, 1);
    ck_assert_msg(aclInit(NULL) == ACL_SUCCESS, "aclInit: %s", aclGetRecentErrMsg());
    ck_assert_msg(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice: %s", aclGetRecentErrMsg());
    ck_assert_msg(aclrtCreateStream(&nnt_stream) == ACL_SUCCESS, "aclrtCreateStream: %s", aclGetRecentErrMsg());
}

void nnt_teardown(void)
{
    aclrtDestroyStream(nnt_stream);
    aclrtResetDevice(0);
    aclFinalize();
}

size_t nnt_dtype_size(aclDataType t)
{
    if (t == ACL_INT64 || t == ACL_DOUBLE)
        return 8;
    return t == ACL_FLOAT || t == ACL_INT32 ? 4 : t == ACL_INT8 || t == ACL_BOOL || t == ACL_UINT8 ? 1 : 2;
}

int64_t nnt_numel(const int64_t *dims, int nd)
{
    int64_t n = 1;
    for (int i = 0; i < nd; i++)
        n *= dims[i];
    return n;
}

nnt_dt_t nnt_mk(const int64_t *dims, int nd, aclDataType dt, aclFormat fmt, const void *host)
{
    nnt_dt_t r;
    r.bytes = (size_t)nnt_numel(dims, nd) * nnt_dtype_size(dt);
    CK_OK(aclrtMalloc(&r.dev, r.bytes ? r.bytes : 1, ACL_MEM_MALLOC_HUGE_FIRST));
    if (host && r.bytes)
        CK_OK(aclrtMemcpy(r.dev, r.bytes, host, r.bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    else if (r.bytes)
        CK_OK(aclrtMemset(r.dev, r.bytes, 0, r.bytes));
    r.t = aclCreateTensor(dims, (uint64_t)nd, dt, NULL, 0, fmt, dims, (uint64_t)nd, r.dev);
    ck_assert_msg(r.t != NULL, "aclCreateTensor: %s", aclGetRecentErrMsg());
    return r;
}

void nnt_rd(const nnt_dt_t *t, void *host)
{
    CK_OK(aclrtMemcpy(host, t->bytes, t->dev, t->bytes, ACL_MEMCPY_DEVICE_TO_HOST));
}

void nnt_rm(nnt_dt_t *t)
{
    CK_OK(aclDestroyTensor(t->t));
    CK_OK(aclrtFree(t->dev));
}

void nnt_fill(float *v, int64_t n, unsigned seed, float lo, float hi)
{
    uint32_t s = seed * 2654435761u + 1;
    for (int64_t i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        v[i] = lo + (hi - lo) * (float)(s >> 8) / 16777216.0f;
    }
}

void nnt_to_f16(const float *f, uint16_t *h, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        h[i] = aclFloatToFloat16(f[i]);
}

float nnt_f16r(float f)
{
    return aclFloat16ToFloat(aclFloatToFloat16(f));
}

void nnt_ck_close(const char *what, const float *got, const double *want, int64_t n, double atol, double rtol)
{
    for (int64_t i = 0; i < n; i++)
        ck_assert_msg(fabs(got[i] - want[i]) <= atol + rtol * fabs(want[i]), "%s[%lld]: got %.9g, want %.9g", what,
                      (long long)i, got[i], want[i]);
}

void nnt_setup(void)
{
    nnt_setup_profile(NULL);
}
