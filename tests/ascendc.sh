#!/bin/sh
# tests/ascendc.sh - Ascend C through CANN's build flow, against an installed tree (make install PREFIX=...):
#
#   1. every example in examples/ascendc/*/, built as CANN's samples are built:
#        source PREFIX/set_env.sh; cmake -S DIR -B BUILD -DCMAKE_ASC_ARCHITECTURES=dav-2201;
#        cmake --build BUILD; (cd BUILD && ./demo)
#      each example checks its results against a plain C++ reference on the host and exits nonzero,
#      printing the largest error, on a mismatch;
#   2. kernels loaded at run time: a library built with dvcc -shared, launched through
#      aclrtBinaryLoadFromFile, aclrtBinaryGetFunction, aclrtKernelArgs* (with a placeholder) and
#      aclrtLaunchKernel / aclrtLaunchKernelWithConfig;
#   3. dvcc --gen-launch-header: a C host program launching the kernel with ACLRT_LAUNCH_KERNEL;
#   4. what a user gets wrong: each error names the file and line (or the option) as the check expects;
#      a dependency file names the user's source.
#
#   PREFIX=/tmp/dvsim-install sh tests/ascendc.sh
#
# Environment: PREFIX (the installed tree, default $B/install), B (build directory, default build; the
# builds go to $B/ascendc), CC (default gcc).  The last line is always "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 1
B=${B:-build}
PREFIX=${PREFIX:-$B/install}
CC=${CC:-gcc}
case "$PREFIX" in /*) ;; *) PREFIX="$(pwd)/$PREFIX" ;; esac
case "$B" in /*) ;; *) B="$(pwd)/$B" ;; esac
OUT="$B/ascendc"
if [ ! -x "$PREFIX/bin/dvcc" ] || [ ! -f "$PREFIX/set_env.sh" ]; then
    echo "ascendc: $PREFIX has no bin/dvcc or set_env.sh: run make install PREFIX=$PREFIX"
    echo "0 passed, 1 failed"
    exit 1
fi
if ! command -v cmake >/dev/null 2>&1; then
    echo "FAIL cmake: not installed (make test installs it: apt-get install cmake)"
    echo "0 passed, 1 failed"
    exit 1
fi
# shellcheck disable=SC1091 # the installed environment, as a CANN user sources it
. "$PREFIX/set_env.sh"
mkdir -p "$OUT" || exit 1
TIMEOUT=
command -v timeout >/dev/null 2>&1 && TIMEOUT="timeout 600"

pass=0
fail=0
ok() {
    echo "ok   $1"
    pass=$((pass + 1))
}
bad() {
    echo "FAIL $1"
    fail=$((fail + 1))
}
# show LOG: a failure's output, indented
show() { sed 's/^/    /' "$1"; }

# ---- 1. the examples, through CMake
for dir in examples/ascendc/*/; do
    [ -f "$dir/CMakeLists.txt" ] || continue
    name=$(basename "$dir")
    build="$OUT/$name"
    rm -rf "$build"
    # shellcheck disable=SC2086 # TIMEOUT is empty or a command and its argument
    if ! { cmake -S "$dir" -B "$build" -DCMAKE_ASC_ARCHITECTURES=dav-2201 &&
        $TIMEOUT cmake --build "$build" -j2; } >"$OUT/$name.build.log" 2>&1; then
        bad "$name: does not build with CMake against $PREFIX:"
        show "$OUT/$name.build.log"
        continue
    fi
    # shellcheck disable=SC2086
    if (cd "$build" && $TIMEOUT ./demo) >"$OUT/$name.log" 2>&1; then
        ok "$name: $(tail -n 1 "$OUT/$name.log")"
    else
        bad "$name: ./demo exited with status $?; its output:"
        show "$OUT/$name.log"
    fi
done

# ---- 2. a kernel library loaded at run time
W="$OUT/binary"
rm -rf "$W" && mkdir -p "$W/gen" || exit 1
cat >"$W/kernels.asc" <<'EOF'
#include "acl/acl.h"
#include "kernel_operator.h"

constexpr uint32_t TILE = 1024;

/* z = x, each block its share, tile by tile through one queue */
__aicore__ inline void CopyShare(GM_ADDR x, GM_ADDR z, uint32_t total)
{
    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 2> que;
    AscendC::GlobalTensor<float> xGm, zGm;
    const uint32_t share = total / AscendC::GetBlockNum();
    xGm.SetGlobalBuffer((__gm__ float *)x + share * AscendC::GetBlockIdx(), share);
    zGm.SetGlobalBuffer((__gm__ float *)z + share * AscendC::GetBlockIdx(), share);
    pipe.InitBuffer(que, 2, TILE * sizeof(float));
    for (uint32_t i = 0; i < share / TILE; i++) {
        AscendC::LocalTensor<float> t = que.AllocTensor<float>();
        AscendC::DataCopy(t, xGm[i * TILE], TILE);
        que.EnQue(t);
        t = que.DeQue<float>();
        AscendC::DataCopy(zGm[i * TILE], t, TILE);
        que.FreeTensor(t);
    }
}

extern "C" __global__ __aicore__ void copy_custom(GM_ADDR x, GM_ADDR z, uint32_t total)
{
    CopyShare(x, z, total);
}

/* the same with the element count read from GM (a placeholder parameter) */
extern "C" __global__ __aicore__ void copy_counted(GM_ADDR x, GM_ADDR z, GM_ADDR count)
{
    AscendC::GlobalTensor<uint32_t> countGm;
    countGm.SetGlobalBuffer((__gm__ uint32_t *)count, 1);
    CopyShare(x, z, countGm.GetValue(0));
}

/* a header per #if branch, one body: an entry per branch, each under its branch's condition */
#ifdef COPY_ON_AIC
extern "C" __global__ __aicore__ void copy_variant(GM_ADDR x, GM_ADDR z, uint32_t total)
#else
extern "C" __global__ __vector__ void copy_variant(GM_ADDR x, GM_ADDR z, uint32_t total)
#endif
{
    CopyShare(x, z, total);
}

#if 0
extern "C" __global__ __aicore__ void never_compiled(GM_ADDR x)
{
}
#endif
EOF
cat >"$W/host.cpp" <<'EOF'
#include <cstdio>
#include <vector>
#include "acl/acl.h"

#define CHECK(expr)                                                                                    \
    do {                                                                                               \
        aclError rc_ = (expr);                                                                         \
        if (rc_ != ACL_SUCCESS) {                                                                      \
            std::printf("FAIL line %d: %s returned %d: %s\n", __LINE__, #expr, rc_, aclGetRecentErrMsg()); \
            return 1;                                                                                  \
        }                                                                                              \
    } while (0)

static const uint32_t N = 8 * 4096;

/* the elements of z that are not x's (the first n) or zero (the rest) */
static int wrong(const std::vector<float> &x, void *dz, uint32_t n)
{
    std::vector<float> z(N);
    if (aclrtMemcpy(z.data(), N * 4, dz, N * 4, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS)
        return (int)N;
    int bad = 0;
    for (uint32_t i = 0; i < N; i++)
        bad += z[i] != (i < n ? x[i] : 0.0f);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    std::vector<float> x(N);
    for (uint32_t i = 0; i < N; i++)
        x[i] = (float)i * 0.25f - 100.0f;
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream;
    CHECK(aclrtCreateStream(&stream));
    void *dx, *dz;
    CHECK(aclrtMalloc(&dx, N * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dz, N * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(dx, N * 4, x.data(), N * 4, ACL_MEMCPY_HOST_TO_DEVICE));

    aclrtBinHandle bin;
    aclrtFuncHandle copy, counted;
    aclrtArgsHandle args;
    aclrtParamHandle p;
    CHECK(aclrtBinaryLoadFromFile(argv[1], nullptr, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "copy_custom", &copy));
    CHECK(aclrtBinaryGetFunction(bin, "copy_counted", &counted));
    int bad = 0;

    /* an argument list: two device pointers and a count */
    CHECK(aclrtMemset(dz, N * 4, 0, N * 4));
    CHECK(aclrtKernelArgsInit(copy, &args));
    CHECK(aclrtKernelArgsAppend(args, &dx, sizeof dx, &p));
    CHECK(aclrtKernelArgsAppend(args, &dz, sizeof dz, &p));
    uint32_t n = N;
    CHECK(aclrtKernelArgsAppend(args, &n, sizeof n, &p));
    CHECK(aclrtKernelArgsFinalize(args));
    CHECK(aclrtLaunchKernelWithConfig(copy, 8, stream, nullptr, args, nullptr));
    CHECK(aclrtSynchronizeStream(stream));
    bad += wrong(x, dz, N);

    /* a blob laid out as the parameters' struct: half the elements */
    struct {
        void *x, *z;
        uint32_t n;
    } blob = {dx, dz, N / 2};
    CHECK(aclrtMemset(dz, N * 4, 0, N * 4));
    CHECK(aclrtLaunchKernel(copy, 8, &blob, sizeof blob, stream));
    CHECK(aclrtSynchronizeStream(stream));
    bad += wrong(x, dz, N / 2);

    /* the count as a placeholder: the runtime copies it to device memory */
    CHECK(aclrtMemset(dz, N * 4, 0, N * 4));
    aclrtParamHandle ph;
    void *count;
    CHECK(aclrtKernelArgsInit(counted, &args));
    CHECK(aclrtKernelArgsAppend(args, &dx, sizeof dx, &p));
    CHECK(aclrtKernelArgsAppend(args, &dz, sizeof dz, &p));
    CHECK(aclrtKernelArgsAppendPlaceHolder(args, &ph));
    CHECK(aclrtKernelArgsGetPlaceHolderBuffer(args, ph, sizeof(uint32_t), &count));
    *(uint32_t *)count = N / 4;
    CHECK(aclrtKernelArgsFinalize(args));
    aclrtLaunchKernelAttr attr = {};
    attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
    attr.value.schemMode = 1;
    aclrtLaunchKernelCfg cfg = {&attr, 1};
    CHECK(aclrtLaunchKernelWithConfig(counted, 8, stream, &cfg, args, nullptr));
    CHECK(aclrtSynchronizeStream(stream));
    bad += wrong(x, dz, N / 4);

    aclrtFuncHandle variant;
    CHECK(aclrtBinaryGetFunction(bin, "copy_variant", &variant));
    bad += aclrtBinaryGetFunction(bin, "never_compiled", &variant) != ACL_ERROR_KERNEL_NOT_FOUND;
    aclError rc = aclrtBinaryGetFunction(bin, "add_custom", &copy);
    std::printf("unknown kernel: %d %s\n", rc, aclGetRecentErrMsg());
    bad += rc != ACL_ERROR_KERNEL_NOT_FOUND;
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtFree(dx));
    CHECK(aclrtFree(dz));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    std::printf("3 launches from a kernel library: %d elements wrong\n", bad);
    return bad ? 1 : 0;
}
EOF
cat >"$W/launch.c" <<'EOF'
/* a C host program: the kernel through its generated aclrtlaunch_copy_custom.h */
#include <stdio.h>
#include "acl/acl.h"
#include "aclrtlaunch_copy_custom.h"

enum { N = 8 * 2048 };

int main(void)
{
    static float x[N], z[N];
    void *dx, *dz;
    aclrtStream stream;
    for (int i = 0; i < N; i++)
        x[i] = (float)i - 5.5f;
    if (aclInit(NULL) || aclrtSetDevice(0) || aclrtCreateStream(&stream) ||
        aclrtMalloc(&dx, sizeof x, ACL_MEM_MALLOC_HUGE_FIRST) ||
        aclrtMalloc(&dz, sizeof z, ACL_MEM_MALLOC_HUGE_FIRST) ||
        aclrtMemcpy(dx, sizeof x, x, sizeof x, ACL_MEMCPY_HOST_TO_DEVICE) ||
        ACLRT_LAUNCH_KERNEL(copy_custom)(8, stream, dx, dz, N) || aclrtSynchronizeStream(stream) ||
        aclrtMemcpy(z, sizeof z, dz, sizeof z, ACL_MEMCPY_DEVICE_TO_HOST)) {
        printf("FAIL: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += z[i] != x[i];
    printf("ACLRT_LAUNCH_KERNEL(copy_custom): %d elements wrong\n", bad);
    return bad != 0 || aclrtFree(dx) || aclrtFree(dz) || aclrtDestroyStream(stream) || aclrtResetDevice(0) ||
           aclFinalize();
}
EOF

# step NAME LOG COMMAND...: run a build step; on failure report it with its output
step() {
    name=$1 log=$2
    shift 2
    if "$@" >>"$log" 2>&1; then
        return 0
    fi
    bad "$name: $* failed:"
    show "$log"
    return 1
}

log="$W/binary.log"
: >"$log"
if step binary "$log" dvcc -shared "$W/kernels.asc" -o "$W/libkernels.so" &&
    step binary "$log" dvcc "$W/host.cpp" -o "$W/host"; then
    # shellcheck disable=SC2086
    if (cd "$W" && $TIMEOUT ./host ./libkernels.so) >"$W/run.log" 2>&1 &&
        grep -q "has no kernel 'add_custom'" "$W/run.log"; then
        ok "binary: $(tail -n 1 "$W/run.log")"
    else
        bad "binary: ./host ./libkernels.so failed; its output:"
        show "$W/run.log"
    fi
fi

# ---- 3. dvcc --gen-launch-header and ACLRT_LAUNCH_KERNEL from C
log="$W/gen.log"
: >"$log"
if step gen-launch-header "$log" dvcc --gen-launch-header "$W/gen" "$W/kernels.asc" &&
    step gen-launch-header "$log" dvcc -c "$W/kernels.asc" -o "$W/kernels.o" &&
    step gen-launch-header "$log" dvcc -c "$W/gen/aclrtlaunch_copy_custom.cpp" -o "$W/aclrtlaunch_copy_custom.o" &&
    step gen-launch-header "$log" "$CC" -std=c11 -Wall -Wextra -Werror -I"$W/gen" -I"$PREFIX/include" \
        -c "$W/launch.c" -o "$W/launch.o" &&
    step gen-launch-header "$log" dvcc "$W/launch.o" "$W/aclrtlaunch_copy_custom.o" "$W/kernels.o" -o "$W/launch"; then
    # shellcheck disable=SC2086
    if $TIMEOUT "$W/launch" >"$W/launch.log" 2>&1; then
        ok "gen-launch-header: $(tail -n 1 "$W/launch.log")"
    else
        bad "gen-launch-header: the program failed; its output:"
        show "$W/launch.log"
    fi
fi

# ---- 4. errors, each with the message a user needs
E="$OUT/errors"
rm -rf "$E" && mkdir -p "$E" || exit 1
printf '#include "kernel_operator.h"\nvoid run(void *s)\n{\n    k<<<8, nullptr, s(0);\n}\n' >"$E/unclosed.asc"
printf 'void run(void *s)\n{\n    (*f)<<<8, nullptr, s>>>();\n}\n' >"$E/noname.asc"
cat >"$E/api.asc" <<'EOF'
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void k(GM_ADDR x)
{
    (void)x;
    AscendC::NotAnAscendCApi(x);
}
EOF
cp "$W/kernels.asc" "$E/deps.asc"

# expect NAME WANT COMMAND...: the command fails and its output contains WANT
expect() {
    name=$1 want=$2
    shift 2
    if "$@" >"$E/$name.log" 2>&1; then
        bad "$name: $* succeeded; want a failure saying: $want"
    elif grep -qF -- "$want" "$E/$name.log"; then
        ok "$name: $want"
    else
        bad "$name: $* does not say '$want'; its output:"
        show "$E/$name.log"
    fi
}
expect unclosed "unclosed.asc:4: error: '<<<' without its '>>>'" dvcc -c "$E/unclosed.asc" -o "$E/x.o"
expect noname "noname.asc:3: error: a kernel call needs the kernel's name before '<<<'" \
    dvcc -c "$E/noname.asc" -o "$E/x.o"
expect unknown-api "api.asc:5:" dvcc -c "$E/api.asc" -o "$E/x.o"
if ! grep -q "NotAnAscendCApi" "$E/unknown-api.log"; then
    bad "unknown-api: the compiler's message does not name NotAnAscendCApi"
fi
expect arch "--npu-arch=dav-3510: dvsim models dav-2201" dvcc --npu-arch=dav-3510 -c "$E/deps.asc" -o "$E/x.o"
expect option "unknown option '--bogus'" dvcc --bogus -c "$E/deps.asc"
expect missing "nothere.asc: No such file or directory" dvcc -c "$E/nothere.asc"
# the CMake flows of CANN's compile samples: a shared and a static kernel library (the kernel and its
# launcher in separate files, -dc), each linked by a C++ host program with LINKER_LANGUAGE ASC
L="$OUT/cmake-libs"
rm -rf "$L" && mkdir -p "$L" && cp "$E/deps.asc" "$L/kernels.asc" || exit 1
cat >"$L/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
set(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "NPU architecture: dav-2201")
find_package(ASC REQUIRED)
project(library_compile LANGUAGES ASC CXX)
add_library(kshared SHARED kernels.asc launch.asc)
add_library(kstatic STATIC kernels.asc launch.asc)
set_target_properties(kshared kstatic PROPERTIES LINKER_LANGUAGE ASC)
target_compile_options(kshared PRIVATE $<$<COMPILE_LANGUAGE:ASC>:-dc --npu-arch=${CMAKE_ASC_ARCHITECTURES} -fPIC>)
target_compile_options(kstatic PRIVATE $<$<COMPILE_LANGUAGE:ASC>:-dc --npu-arch=${CMAKE_ASC_ARCHITECTURES}>)
add_executable(demo_shared main.cpp)
add_executable(demo_static main.cpp)
set_target_properties(demo_shared demo_static PROPERTIES LINKER_LANGUAGE ASC)
target_include_directories(demo_shared PRIVATE $ENV{ASCEND_HOME_PATH}/include)
target_include_directories(demo_static PRIVATE $ENV{ASCEND_HOME_PATH}/include)
target_link_libraries(demo_shared PRIVATE kshared)
target_link_libraries(demo_static PRIVATE kstatic)
EOF
cat >"$L/launch.asc" <<'EOF'
#include "acl/acl.h"
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void copy_custom(GM_ADDR x, GM_ADDR z, uint32_t total);

uint32_t run_copy(void *x, void *z, uint32_t n, aclrtStream stream)
{
    return copy_custom<<<8, nullptr, stream>>>((GM_ADDR)x, (GM_ADDR)z, n);
}
EOF
cat >"$L/main.cpp" <<'EOF'
#include <cstdio>
#include <vector>
#include "acl/acl.h"

uint32_t run_copy(void *x, void *z, uint32_t n, aclrtStream stream);

int main()
{
    const uint32_t n = 8 * 2048;
    std::vector<float> x(n), z(n);
    for (uint32_t i = 0; i < n; i++)
        x[i] = (float)i / 8;
    void *dx, *dz;
    aclrtStream stream;
    if (aclrtSetDevice(0) || aclrtCreateStream(&stream) || aclrtMalloc(&dx, n * 4, ACL_MEM_MALLOC_HUGE_FIRST) ||
        aclrtMalloc(&dz, n * 4, ACL_MEM_MALLOC_HUGE_FIRST) ||
        aclrtMemcpy(dx, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE) || run_copy(dx, dz, n, stream) ||
        aclrtSynchronizeStream(stream) || aclrtMemcpy(z.data(), n * 4, dz, n * 4, ACL_MEMCPY_DEVICE_TO_HOST)) {
        std::printf("FAIL: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    int bad = 0;
    for (uint32_t i = 0; i < n; i++)
        bad += z[i] != x[i];
    std::printf("a kernel from a library: %d elements wrong\n", bad);
    return bad != 0;
}
EOF
expect cmake-arch "CMAKE_ASC_ARCHITECTURES=dav-3510: dvsim models dav-2201" \
    cmake -S "$L" -B "$L/b-arch" -DCMAKE_ASC_ARCHITECTURES=dav-3510
expect cmake-mode "CMAKE_ASC_RUN_MODE=fpga: must be npu, cpu or sim" \
    cmake -S "$L" -B "$L/b-mode" -DCMAKE_ASC_RUN_MODE=fpga
# every run mode builds for the model, and says so
# shellcheck disable=SC2086 # TIMEOUT is empty or a command and its argument
if cmake -S "$L" -B "$L/b" -DCMAKE_ASC_RUN_MODE=sim >"$L/build.log" 2>&1 &&
    grep -q "CMAKE_ASC_RUN_MODE=sim builds a program that runs on the dvsim model" "$L/build.log" &&
    $TIMEOUT cmake --build "$L/b" -j2 >>"$L/build.log" 2>&1; then
    for demo in demo_shared demo_static; do
        # shellcheck disable=SC2086
        if (cd "$L/b" && $TIMEOUT "./$demo") >"$L/$demo.log" 2>&1; then
            ok "cmake-$demo: $(tail -n 1 "$L/$demo.log")"
        else
            bad "cmake-$demo: exited with status $?; its output:"
            show "$L/$demo.log"
        fi
    done
else
    bad "cmake-libs: configuring with CMAKE_ASC_RUN_MODE=sim and building:"
    show "$L/build.log"
fi
# the rewrite leaves literals and comments alone and takes qualified and template kernel names
cat >"$E/rewrite.asc" <<'EOF'
#include <cstdio>
#include <cstring>
#include "acl/acl.h"
#include "kernel_operator.h"

namespace dvt {
template <uint32_t SCALE>
__global__ __aicore__ void fill(GM_ADDR z, uint32_t n)
{
    AscendC::GlobalTensor<uint32_t> zGm;
    zGm.SetGlobalBuffer((__gm__ uint32_t *)z, n);
    if (AscendC::GetBlockIdx() == 0)
        for (uint32_t i = 0; i < n; i++)
            zGm.SetValue(i, i * SCALE);
}
} // namespace dvt

// a comment: k<<<1, 2, 3>>>(x)
/* k<<<1, 2, 3>>>(x) */
static const char *text = "k<<<1, 2, 3>>>(x)";
static const char *raw = R"x(k<<<1, "2", 3>>>(x))x";
static const char quote = '"';
static const long big = 1'000'000;

int main()
{
    uint32_t host[16];
    void *dz;
    aclrtStream stream;
    if (aclrtSetDevice(0) || aclrtCreateStream(&stream) || aclrtMalloc(&dz, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST))
        return 1;
    aclError rc = ::dvt::fill<3> <<< 2, nullptr,
        stream >>> ((GM_ADDR)dz, 16);
    if (rc || aclrtSynchronizeStream(stream) ||
        aclrtMemcpy(host, sizeof host, dz, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST))
        return 1;
    int bad = 0;
    for (uint32_t i = 0; i < 16; i++)
        bad += host[i] != i * 3;
    bad += strcmp(text, "k<<<1, 2, 3>>>(x)") != 0 || strcmp(raw, "k<<<1, \"2\", 3>>>(x)") != 0;
    bad += quote != '"' || big != 1000000 || __LINE__ != 41;
    std::printf("dvt::fill<3>: %d wrong\n", bad);
    return bad != 0;
}
EOF
# shellcheck disable=SC2086
if dvcc "$E/rewrite.asc" -o "$E/rewrite" >"$E/rewrite.log" 2>&1 && $TIMEOUT "$E/rewrite" >>"$E/rewrite.log" 2>&1; then
    ok "rewrite: $(tail -n 1 "$E/rewrite.log")"
else
    bad "rewrite: $E/rewrite.asc:"
    show "$E/rewrite.log"
fi
# -x asc makes any file Ascend C; -v prints the compiler's command
cp "$E/deps.asc" "$E/kernels.txt"
if dvcc -v -x asc -c "$E/kernels.txt" -o "$E/kernels.o" >"$E/xasc.log" 2>&1 &&
    grep -q -- "-x c++ .*kernels.txt.cpp" "$E/xasc.log" && [ -s "$E/kernels.o" ]; then
    ok "x-asc: dvcc -v -x asc compiles kernels.txt as C++ and prints the command"
else
    bad "x-asc: dvcc -v -x asc -c kernels.txt:"
    show "$E/xasc.log"
fi
# the dependency file names the user's source, not dvcc's rewritten copy
if dvcc -c -MD -MT deps.o -MF "$E/deps.d" "$E/deps.asc" -o "$E/deps.o" >"$E/deps.log" 2>&1 &&
    grep -q "^deps.o: $E/deps.asc " "$E/deps.d" && grep -q "kernel_operator.h" "$E/deps.d" &&
    ! grep -q "dvcc\." "$E/deps.d"; then
    ok "depfile: names $E/deps.asc and the headers it includes"
else
    bad "depfile: $E/deps.d does not start with 'deps.o: $E/deps.asc' or names dvcc's temporary file:"
    show "$E/deps.log"
    show "$E/deps.d"
fi

# -MD without -MF: the dependency file is the object's, naming the object and the user's source
if (cd "$E" && dvcc -c -MD deps.asc -o deps2.o) >"$E/deps2.log" 2>&1 && grep -q "^deps2.o: deps.asc " "$E/deps2.d"; then
    ok "depfile-md: deps2.d names deps2.o and deps.asc"
else
    bad "depfile-md: dvcc -c -MD deps.asc -o deps2.o did not write deps2.d naming deps2.o: deps.asc:"
    show "$E/deps2.log"
fi

# an Ascend C source is optimised unless the build says otherwise, and -flto, which leaves no machine
# code to count, is built with a warning that its native code is not charged
if dvcc -v -c "$E/deps.asc" -o "$E/o2.o" >"$E/o2.log" 2>&1 && grep -q -- "-std=c++17 -O2 " "$E/o2.log" &&
    dvcc -v -O0 -c "$E/deps.asc" -o "$E/o0.o" >"$E/o0.log" 2>&1 && ! grep -q -- " -O2 " "$E/o0.log"; then
    ok "opt-default: -O2 without -O, none with -O0"
else
    bad "opt-default: dvcc -v -c deps.asc does not add -O2, or adds it to -O0:"
    show "$E/o2.log"
    show "$E/o0.log"
fi
if dvcc -flto -c "$E/deps.asc" -o "$E/lto.o" >"$E/lto.log" 2>&1 &&
    grep -q "warning: the native code of the kernels is not charged to the scalar unit: -flto" "$E/lto.log"; then
    ok "native-lto: -flto builds, warning that native code is not charged"
else
    bad "native-lto: dvcc -flto -c deps.asc:"
    show "$E/lto.log"
fi

# ---- 5. native code is charged to the scalar unit (docs/KERNEL.md, the scalar cost rule, rule 4)
# A loop of n steps of an LCG, n and the seed read from GM (g++ cannot fold it): from 20000 steps on,
# its cycles grow by the same number for every 20000 steps, a whole number of scalar.alu_cycles per
# step (at least 3: the multiply, the add, the loop's compare and branch), twice that with
# alu_cycles doubled.
N=$OUT/native
mkdir -p "$N"
cat >"$N/native.asc" <<'EOF'
#include <cstdio>
#include <cstdlib>
#include "acl/acl.h"
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void lcg(GM_ADDR p)
{
    AscendC::GlobalTensor<uint32_t> g;
    g.SetGlobalBuffer((__gm__ uint32_t *)p, 2);
    const uint32_t n = g.GetValue(0);
    uint32_t x = g.GetValue(1);
    for (uint32_t i = 0; i < n; i++)
        x = x * 1664525u + 1013904223u;
    g.SetValue(1, x);
}

int main(int argc, char **argv)
{
    uint32_t host[2] = {(uint32_t)std::atoi(argc > 1 ? argv[1] : "0"), 7}, want = host[1];
    for (uint32_t i = 0; i < host[0]; i++)
        want = want * 1664525u + 1013904223u;
    void *d;
    aclrtStream stream;
    if (aclInit(nullptr) || aclrtSetDevice(0) || aclrtCreateStream(&stream) ||
        aclrtMalloc(&d, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST) ||
        aclrtMemcpy(d, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE) ||
        lcg<<<1, nullptr, stream>>>((GM_ADDR)d) || aclrtSynchronizeStream(stream) ||
        aclrtMemcpy(host, sizeof host, d, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST) || aclFinalize()) {
        std::printf("FAIL: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    std::printf("lcg of %s steps: %u, want %u\n", argc > 1 ? argv[1] : "0", host[1], want);
    return host[1] != want;
}
EOF
# cycles N_STEPS CONFIG: the kernel's aiv_total_cycles from op_summary.csv (empty on a failure)
cycles() {
    rm -rf "$N/prof"
    # shellcheck disable=SC2086
    DVSIM_CONFIG=$2 DVSIM_PROFILE_OUT="$N/prof" $TIMEOUT "$N/native" "$1" >"$N/run.log" 2>&1 &&
        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "aiv_total_cycles") c = i } NR == 2 { print $c }' \
            "$N/prof/op_summary.csv"
}
dvsim --dump-config --profile ascend910b1 >"$N/alu2.yaml" 2>"$N/cfg.log"
dvsim --dump-config --profile ascend910b1 --set scalar.alu_cycles=4 >"$N/alu4.yaml" 2>>"$N/cfg.log"
alu=$(awk '/^scalar:/ { s = 1 } s && /alu_cycles:/ { print $2; exit }' "$N/alu2.yaml")
if dvcc "$N/native.asc" -o "$N/native" >"$N/build.log" 2>&1; then
    c0=$(cycles 20000 "$N/alu2.yaml") c1=$(cycles 40000 "$N/alu2.yaml") c2=$(cycles 60000 "$N/alu2.yaml")
    d0=$(cycles 20000 "$N/alu4.yaml") d2=$(cycles 60000 "$N/alu4.yaml")
    if [ -z "$c0" ] || [ -z "$c1" ] || [ -z "$c2" ] || [ -z "$d0" ] || [ -z "$d2" ] || [ -z "$alu" ]; then
        bad "native: a run failed (alu_cycles '$alu'); its output:"
        show "$N/run.log"
    else
        per=$(((c2 - c1) / 20000)) rest=$(((c2 - c1) % 20000))
        if [ $((c1 - c0)) -eq $((c2 - c1)) ] && [ "$rest" -eq 0 ] && [ $((per % alu)) -eq 0 ] &&
            [ "$per" -ge $((3 * alu)) ] && [ $((d2 - d0)) -eq $((2 * (c2 - c0))) ]; then
            ok "native: $((per / alu)) instructions of $alu cycles per step ($c0, $c1, $c2 cycles; twice with 4)"
        else
            bad "native: cycles $c0, $c1, $c2 for 20000, 40000, 60000 steps (alu_cycles $alu), $d0, $d2 with 4"
        fi
    fi
else
    bad "native: dvcc native.asc:"
    show "$N/build.log"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
