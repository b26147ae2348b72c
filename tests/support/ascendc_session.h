/* tests/support/ascendc_session.h - what the Ascend C Check suites (tests/check_ascendc_*.cpp) share: an
 * AscendCL session on device 0 with a stream, and a device buffer with host contents.  Include it after
 * <check.h> and the AscendCL header. */
#ifndef DVSIM_TESTS_ASCENDC_SESSION_H
#define DVSIM_TESTS_ASCENDC_SESSION_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dvtest {

/* One AscendCL session on device 0 with a stream (each test runs in its own process). */
struct Session {
    aclrtStream stream = nullptr;
    Session()
    {
        ck_assert_int_eq(aclInit(nullptr), ACL_SUCCESS);
        ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
        ck_assert_int_eq(aclrtCreateStream(&stream), ACL_SUCCESS);
    }
    ~Session()
    {
        aclrtDestroyStream(stream);
        aclrtResetDevice(0);
        aclFinalize();
    }
    /* Synchronise; the kernel's status (0 = it ran). */
    int sync() { return aclrtSynchronizeStream(stream); }
};

/* A device buffer with host contents. */
template <class T> struct Dev {
    void *p = nullptr;
    size_t n = 0;
    explicit Dev(const std::vector<T> &h) : n(h.size())
    {
        ck_assert_int_eq(aclrtMalloc(&p, n * sizeof(T), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        ck_assert_int_eq(aclrtMemcpy(p, n * sizeof(T), h.data(), n * sizeof(T), ACL_MEMCPY_HOST_TO_DEVICE),
                         ACL_SUCCESS);
    }
    explicit Dev(size_t count) : Dev(std::vector<T>(count)) {}
    ~Dev() { aclrtFree(p); }
    std::vector<T> get() const
    {
        std::vector<T> h(n);
        ck_assert_int_eq(aclrtMemcpy(h.data(), n * sizeof(T), p, n * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST),
                         ACL_SUCCESS);
        return h;
    }
    uint8_t *gm() const { return static_cast<uint8_t *>(p); }
};

} // namespace dvtest

#endif
