// examples/aclnn_matmul/main.cpp - a cube operator through aclnn, CANN-sample style:
// C[256, 384] = A[256, 512] x B[512, 384] in fp16 with aclnnMatmul (cubeMathType 1,
// ALLOW_FP32_DOWN_PRECISION).  Inputs are made with aclFloatToFloat16; the reference is computed on
// the host in float from the same fp16 inputs.
//
//   g++ -I$PREFIX/include -L$PREFIX/lib main.cpp -lascendcl -lnnopbase -lopapi -o aclnn_matmul
//
// Every element must satisfy |got - want| <= 1e-2 + 1e-2 * |want|; the largest error is printed.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_matmul.h"

// Stop the current function with `action` when `cond` is false, saying why.
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

const int64_t M = 256;
const int64_t K = 512;
const int64_t N = 384;
const int8_t CUBE_MATH_TYPE = 1;   // ALLOW_FP32_DOWN_PRECISION

// Every resource the sample holds, released in one place whatever step failed.
struct Resources {
    int32_t deviceId = 0;
    bool inited = false;
    bool deviceSet = false;
    aclrtStream stream = nullptr;
    void *aDev = nullptr;
    void *bDev = nullptr;
    void *cDev = nullptr;
    void *workspace = nullptr;
    aclTensor *a = nullptr;
    aclTensor *b = nullptr;
    aclTensor *c = nullptr;
};

int64_t GetShapeSize(const std::vector<int64_t> &shape)
{
    int64_t size = 1;
    for (int64_t dim : shape) {
        size *= dim;
    }
    return size;
}

// The next value of a small linear congruential generator, as a multiple of 1/16 in [-1, 1].
float NextSixteenth(uint32_t &seed)
{
    seed = seed * 1664525u + 1013904223u;
    return static_cast<float>(static_cast<int>((seed >> 16) % 33u) - 16) / 16.0f;
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

    // 2. fp16 inputs: pseudo-random multiples of 1/16 in [-1, 1], so every product and every sum is
    //    exact in float and only the final rounding to fp16 differs from the reference
    std::vector<int64_t> aShape = {M, K}, bShape = {K, N}, cShape = {M, N};
    std::vector<aclFloat16> aHost(static_cast<size_t>(M * K)), bHost(static_cast<size_t>(K * N));
    std::vector<aclFloat16> cHost(static_cast<size_t>(M * N), aclFloatToFloat16(0.0f));
    uint32_t seed = 20240607u;
    for (aclFloat16 &v : aHost) {
        v = aclFloatToFloat16(NextSixteenth(seed));
    }
    for (aclFloat16 &v : bHost) {
        v = aclFloatToFloat16(NextSixteenth(seed));
    }
    if (CreateAclTensor(aHost, aShape, &res.aDev, aclDataType::ACL_FLOAT16, &res.a) != 0 ||
        CreateAclTensor(bHost, bShape, &res.bDev, aclDataType::ACL_FLOAT16, &res.b) != 0 ||
        CreateAclTensor(cHost, cShape, &res.cDev, aclDataType::ACL_FLOAT16, &res.c) != 0) {
        return 1;
    }

    // 3. phase one, 4. phase two and wait
    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = nullptr;
    CHECK_ACL(aclnnMatmulGetWorkspaceSize(res.a, res.b, res.c, CUBE_MATH_TYPE, &workspaceSize, &executor), return 1);
    if (workspaceSize > 0) {
        CHECK_ACL(aclrtMalloc(&res.workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST), return 1);
    }
    CHECK_ACL(aclnnMatmul(res.workspace, workspaceSize, executor, res.stream), return 1);
    CHECK_ACL(aclrtSynchronizeStream(res.stream), return 1);

    // 5. result back, compared with a float reference from the same fp16 inputs
    size_t bytes = cHost.size() * sizeof(aclFloat16);
    CHECK_ACL(aclrtMemcpy(cHost.data(), bytes, res.cDev, bytes, ACL_MEMCPY_DEVICE_TO_HOST), return 1);
    std::vector<float> aF(aHost.size()), bF(bHost.size());
    for (size_t i = 0; i < aHost.size(); i++) {
        aF[i] = aclFloat16ToFloat(aHost[i]);
    }
    for (size_t i = 0; i < bHost.size(); i++) {
        bF[i] = aclFloat16ToFloat(bHost[i]);
    }
    size_t wrong = 0;
    float maxErr = 0.0f;
    for (int64_t m = 0; m < M; m++) {
        for (int64_t n = 0; n < N; n++) {
            float want = 0.0f;
            for (int64_t k = 0; k < K; k++) {
                want += aF[static_cast<size_t>(m * K + k)] * bF[static_cast<size_t>(k * N + n)];
            }
            float got = aclFloat16ToFloat(cHost[static_cast<size_t>(m * N + n)]);
            float err = std::fabs(got - want);
            if (!(err <= maxErr)) {
                maxErr = err;   // also catches NaN
            }
            if (!(err <= 1e-2f + 1e-2f * std::fabs(want))) {
                if (wrong < 10) {
                    std::printf("mismatch at [%lld, %lld]: got %.6g, want %.6g\n", static_cast<long long>(m),
                                static_cast<long long>(n), got, want);
                }
                wrong++;
            }
        }
    }
    for (size_t i = 0; i < 4; i++) {
        std::printf("result[%zu] is: %f\n", i, aclFloat16ToFloat(cHost[i]));
    }
    std::printf("aclnnMatmul fp16 [%lld, %lld] x [%lld, %lld], workspace %llu bytes: max error %g, %zu of %zu "
                "elements out of tolerance\n",
                static_cast<long long>(M), static_cast<long long>(K), static_cast<long long>(K),
                static_cast<long long>(N), static_cast<unsigned long long>(workspaceSize), maxErr, wrong,
                cHost.size());
    return wrong == 0 ? 0 : 1;
}

// Release in reverse order of creation; returns nonzero when a release failed.
int Release(Resources &res)
{
    int failed = 0;
    aclTensor *tensors[] = {res.a, res.b, res.c};
    for (aclTensor *t : tensors) {
        if (t != nullptr) {
            CHECK_ACL(aclDestroyTensor(t), failed = 1);
        }
    }
    void *device[] = {res.aDev, res.bDev, res.cDev, res.workspace};
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
    std::printf("aclnn_matmul example: %s\n", rc == 0 ? "PASS" : "FAIL");
    return rc;
}
