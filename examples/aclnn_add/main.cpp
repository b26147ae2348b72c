// examples/aclnn_add/main.cpp - an aclnn operator call the way CANN's aclnn samples make it:
// out = self + alpha * other on [4, 2048] fp32 tensors, through the two-phase interface
// (aclnnAddGetWorkspaceSize, then aclnnAdd on a stream).  Nothing here is dvsim-specific.
//
//   g++ -I$PREFIX/include -L$PREFIX/lib main.cpp -lascendcl -lnnopbase -lopapi -o aclnn_add
//
// The result is checked exactly against the same arithmetic done on the host in float.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

// Stop the current function with `action` (usually a return) when `cond` is false, saying why.
#define CHECK_RET(cond, action)                                              \
    do {                                                                     \
        if (!(cond)) {                                                       \
            std::printf("error at %s:%d: %s\n", __FILE__, __LINE__, #cond);  \
            action;                                                          \
        }                                                                    \
    } while (0)

// The same for an ACL or aclnn call that must return ACL_SUCCESS; prints the runtime's message.
#define CHECK_ACL(call, action)                                                                   \
    do {                                                                                          \
        auto ret_ = (call);                                                                       \
        if (ret_ != ACL_SUCCESS) {                                                                \
            const char *msg_ = aclGetRecentErrMsg();                                              \
            std::printf("error at %s:%d: %s returned %d: %s\n", __FILE__, __LINE__, #call,         \
                        static_cast<int>(ret_), msg_ != nullptr ? msg_ : "(no message)");         \
            action;                                                                               \
        }                                                                                         \
    } while (0)

namespace {

// Every resource the sample holds, released in one place whatever step failed.
struct Resources {
    int32_t deviceId = 0;
    bool inited = false;
    bool deviceSet = false;
    aclrtStream stream = nullptr;
    void *selfDev = nullptr;
    void *otherDev = nullptr;
    void *outDev = nullptr;
    void *workspace = nullptr;
    aclTensor *self = nullptr;
    aclTensor *other = nullptr;
    aclTensor *out = nullptr;
    aclScalar *alpha = nullptr;
};

int64_t GetShapeSize(const std::vector<int64_t> &shape)
{
    int64_t size = 1;
    for (int64_t dim : shape) {
        size *= dim;
    }
    return size;
}

int Init(Resources &res)
{
    CHECK_ACL(aclInit(nullptr), return 1);
    res.inited = true;
    CHECK_ACL(aclrtSetDevice(res.deviceId), return 1);
    res.deviceSet = true;
    CHECK_ACL(aclrtCreateStream(&res.stream), return 1);
    return 0;
}

// Device memory for hostData, filled from it, and a contiguous ND tensor over it.
template <typename T>
int CreateAclTensor(const std::vector<T> &hostData, const std::vector<int64_t> &shape, void **deviceAddr,
                    aclDataType dataType, aclTensor **tensor)
{
    size_t size = static_cast<size_t>(GetShapeSize(shape)) * sizeof(T);
    CHECK_ACL(aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST), return 1);
    CHECK_ACL(aclrtMemcpy(*deviceAddr, size, hostData.data(), size, ACL_MEMCPY_HOST_TO_DEVICE), return 1);

    // row-major strides in elements: the last dimension is contiguous
    std::vector<int64_t> strides(shape.size(), 1);
    for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; i--) {
        strides[i] = shape[i + 1] * strides[i + 1];
    }
    *tensor = aclCreateTensor(shape.data(), shape.size(), dataType, strides.data(), 0, aclFormat::ACL_FORMAT_ND,
                              shape.data(), shape.size(), *deviceAddr);
    CHECK_RET(*tensor != nullptr, return 1);
    return 0;
}

int Run(Resources &res)
{
    // 1. runtime, device, stream
    if (Init(res) != 0) {
        return 1;
    }

    // 2. inputs on the host, tensors on the device
    std::vector<int64_t> shape = {4, 2048};
    size_t n = static_cast<size_t>(GetShapeSize(shape));
    std::vector<float> selfHost(n), otherHost(n), outHost(n, 0.0f);
    for (size_t i = 0; i < n; i++) {
        selfHost[i] = static_cast<float>(i % 97) * 0.37f - 11.0f;
        otherHost[i] = static_cast<float>((i * 31) % 113) * 0.21f - 7.5f;
    }
    float alphaValue = 1.2f;
    if (CreateAclTensor(selfHost, shape, &res.selfDev, aclDataType::ACL_FLOAT, &res.self) != 0 ||
        CreateAclTensor(otherHost, shape, &res.otherDev, aclDataType::ACL_FLOAT, &res.other) != 0 ||
        CreateAclTensor(outHost, shape, &res.outDev, aclDataType::ACL_FLOAT, &res.out) != 0) {
        return 1;
    }
    res.alpha = aclCreateScalar(&alphaValue, aclDataType::ACL_FLOAT);
    CHECK_RET(res.alpha != nullptr, return 1);

    // 3. phase one: workspace size and executor
    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = nullptr;
    CHECK_ACL(aclnnAddGetWorkspaceSize(res.self, res.other, res.alpha, res.out, &workspaceSize, &executor),
              return 1);
    if (workspaceSize > 0) {
        CHECK_ACL(aclrtMalloc(&res.workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST), return 1);
    }

    // 4. phase two: launch on the stream, wait for it
    CHECK_ACL(aclnnAdd(res.workspace, workspaceSize, executor, res.stream), return 1);
    CHECK_ACL(aclrtSynchronizeStream(res.stream), return 1);

    // 5. result back to the host, compared exactly with the same float arithmetic
    size_t bytes = n * sizeof(float);
    CHECK_ACL(aclrtMemcpy(outHost.data(), bytes, res.outDev, bytes, ACL_MEMCPY_DEVICE_TO_HOST), return 1);
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++) {
        volatile float scaled = alphaValue * otherHost[i];   // rounded on its own, never fused with the add
        float want = selfHost[i] + scaled;
        if (i < 4) {
            std::printf("result[%zu] is: %f\n", i, outHost[i]);
        }
        if (outHost[i] != want) {
            if (wrong < 10) {
                std::printf("mismatch at %zu: got %.9g, want %.9g (self %.9g, other %.9g)\n", i, outHost[i], want,
                            selfHost[i], otherHost[i]);
            }
            wrong++;
        }
    }
    std::printf("aclnnAdd [4, 2048] fp32, alpha %.1f, workspace %llu bytes: %zu of %zu elements wrong\n",
                alphaValue, static_cast<unsigned long long>(workspaceSize), wrong, n);
    return wrong == 0 ? 0 : 1;
}

// Release in reverse order of creation; returns nonzero when a release failed.
int Release(Resources &res)
{
    int failed = 0;
    if (res.self != nullptr) {
        CHECK_ACL(aclDestroyTensor(res.self), failed = 1);
    }
    if (res.other != nullptr) {
        CHECK_ACL(aclDestroyTensor(res.other), failed = 1);
    }
    if (res.out != nullptr) {
        CHECK_ACL(aclDestroyTensor(res.out), failed = 1);
    }
    if (res.alpha != nullptr) {
        CHECK_ACL(aclDestroyScalar(res.alpha), failed = 1);
    }
    void *device[] = {res.selfDev, res.otherDev, res.outDev, res.workspace};
    for (void *p : device) {
        if (p != nullptr) {
            CHECK_ACL(aclrtFree(p), failed = 1);
        }
    }
    if (res.stream != nullptr) {
        CHECK_ACL(aclrtDestroyStream(res.stream), failed = 1);
    }
    if (res.deviceSet) {
        CHECK_ACL(aclrtResetDevice(res.deviceId), failed = 1);
    }
    if (res.inited) {
        CHECK_ACL(aclFinalize(), failed = 1);
    }
    return failed;
}

}  // namespace

int main()
{
    Resources res;
    int rc = Run(res);
    if (Release(res) != 0) {
        rc = 1;
    }
    std::printf("aclnn_add example: %s\n", rc == 0 ? "PASS" : "FAIL");
    return rc;
}
