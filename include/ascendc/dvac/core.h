/* dvac/core.h - the ground floor of dvsim's Ascend C: qualifiers, element types, positions, pipes,
 * events, the block's identity, and how an API call reaches the kernel API (dv/kapi.h).
 *
 * An Ascend C kernel runs on the host once per block (and per AIC / AIV stream of a mix block) as a
 * dvsim C kernel: its control flow runs natively and every API call emits the instructions CANN's
 * compiler emits for it through dvk_<mnemonic>.  The kernel does not pass the stream along, so the
 * API finds it with dvk_current().  Every API function takes, as its last parameter, the caller's
 * source location (a defaulted dvac::Loc): errors name the API and the user's file and line, and the
 * instructions carry the line for the hot-spot table. */
#ifndef DVAC_CORE_H
#define DVAC_CORE_H

#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <type_traits>

#include "dv/kapi.h"
#include "dv/semantics.h"

/* ---- kernel qualifiers: all kernels are host functions here ---- */
#define __global__
#define __aicore__
#define __gm__
/* A kernel's declared core type puts it in a section of its own, which its launch looks up
 * (dvac::declared_kind); an __aicore__ kernel's type is found from its code. */
#define __vector__ __attribute__((section("dvsim_vector_kernels"), noinline))
#define __cube__ __attribute__((section("dvsim_cube_kernels"), noinline))
#define __ubuf__
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __fbuf__
#define __mix__(aic, aiv) __attribute__((section("dvsim_mix_kernels"), noinline))
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif
#define ASCENDC_DVSIM 1
typedef uint8_t *GM_ADDR;

/* ---- 16-bit floating-point element types ---- */
typedef _Float16 half;

/* bfloat16: the high half of an IEEE float; converts to and from float (round to nearest even). */
struct bfloat16_t {
    uint16_t bits;
    bfloat16_t() = default;
    bfloat16_t(float f)
    {
        uint32_t u;
        std::memcpy(&u, &f, 4);
        if ((u & 0x7fffffffu) > 0x7f800000u)
            bits = (uint16_t)((u >> 16) | 0x40u); /* NaN stays NaN */
        else
            bits = (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
    }
    bfloat16_t(double d) : bfloat16_t((float)d) {}
    bfloat16_t(int i) : bfloat16_t((float)i) {}
    operator float() const
    {
        uint32_t u = (uint32_t)bits << 16;
        float f;
        std::memcpy(&f, &u, 4);
        return f;
    }
};

namespace dvac {

/* ---- where an API was called from ---- */
struct Loc {
    const char *file;
    unsigned line;
    static constexpr Loc here(const char *f = __builtin_FILE(), unsigned l = __builtin_LINE()) { return Loc{f, l}; }
};

/* The stream whose kernel function runs on this thread.  An API used outside a kernel is a
 * programming error that no simulation can follow: it is reported and the program stops. */
inline dv_k_t *k(const Loc &loc = Loc::here())
{
    dv_k_t *c = dvk_current();
    if (!c) {
        std::fprintf(stderr, "%s:%u: error: an Ascend C kernel API was called outside a kernel\n", loc.file, loc.line);
        std::exit(1);
    }
    return c;
}

/* Fail the kernel at the caller's line, naming the API: "file:line: Api: message". */
[[noreturn]] inline void fail_at(const Loc &loc, const char *api, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
inline void fail_at(const Loc &loc, const char *api, const char *fmt, ...)
{
    char msg[480];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    dvk_fail(k(loc), "%s:%u: %s: %s", loc.file, loc.line, api, msg);
}

/* The instructions emitted from here on carry the caller's line. */
inline dv_k_t *at(const Loc &loc)
{
    dv_k_t *c = k(loc);
    dvk_set_line(c, loc.line);
    return c;
}

inline const dv_config_t &cfg() { return *dvk_config(k()); }
inline bool is_aic() { return dvk_is_aic(k()); }
inline bool is_aiv() { return dvk_is_aiv(k()); }
/* A split chip's mix kernel: the AIC and the AIVs run different streams. */
inline bool is_mix() { return dvk_kind(k()) == DV_KIND_MIX; }

/* ---- element types ---- */
template <typename T> struct dtype_t {
    static constexpr bool known = false;
};
#define DVAC_DTYPE(type, id)                                                                                         \
    template <> struct dtype_t<type> {                                                                               \
        static constexpr bool known = true;                                                                          \
        static constexpr dv_dtype_t value = id;                                                                      \
    };
DVAC_DTYPE(half, DV_DT_F16)
DVAC_DTYPE(bfloat16_t, DV_DT_BF16)
DVAC_DTYPE(float, DV_DT_F32)
DVAC_DTYPE(int8_t, DV_DT_S8)
DVAC_DTYPE(uint8_t, DV_DT_U8)
DVAC_DTYPE(int16_t, DV_DT_S16)
DVAC_DTYPE(uint16_t, DV_DT_U16)
DVAC_DTYPE(int32_t, DV_DT_S32)
DVAC_DTYPE(uint32_t, DV_DT_U32)
DVAC_DTYPE(bool, DV_DT_U8) /* one byte, 0 or 1: CANN's bool tensors (TopK's finish flags, byte masks) */
#undef DVAC_DTYPE
template <typename T> constexpr dv_dtype_t dtype_of()
{
    static_assert(dtype_t<T>::known, "dvsim Ascend C: this element type is not supported");
    return dtype_t<T>::value;
}

} // namespace dvac

/* Pipes and event ids, as CCE spells them (global names, also in AscendC). */
enum pipe_t : uint8_t { PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_MTE4, PIPE_MTE5,
                        PIPE_V2, PIPE_FIX, MAX_PIPE };
enum TEventID : int32_t { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };
using event_t = int32_t;

namespace AscendC {

/* ---- sizes (Atlas A2) ---- */
constexpr int32_t ONE_BLK_SIZE = 32;             /* bytes of a datablock */
constexpr int32_t DEFAULT_BLK_NUM = 8;           /* datablocks per repeat */
constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;    /* bytes per repeat */
constexpr int32_t DEFAULT_REPEAT_STRIDE = 8;     /* datablocks between repeats */
constexpr int32_t MAX_REPEAT_TIMES = 255;
constexpr int32_t BLOCK_CUBE = 16;
constexpr int32_t CUBE_MAX_SIZE = 256;
constexpr int32_t ONE_BLOCK_SIZE = 32;
constexpr int32_t DEFAULT_C0_SIZE = 32;
constexpr uint32_t TOTAL_UB_SIZE = 192 * 1024;
constexpr uint32_t TOTAL_L1_SIZE = 512 * 1024;
constexpr uint32_t TOTAL_L0A_SIZE = 64 * 1024;
constexpr uint32_t TOTAL_L0B_SIZE = 64 * 1024;
constexpr uint32_t TOTAL_L0C_SIZE = 128 * 1024;

/* ---- positions of a tensor (TPosition; QuePosition is the same) ---- */
enum class TPosition : uint8_t {
    GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM = SPM, TSCM, C2PIPE2GM,
    C2PIPE2LOCAL, MAX,
};
using QuePosition = TPosition;

enum class CubeFormat : uint8_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };

/* ---- pipes, as the CCE intrinsics name them (global names, also in AscendC) ---- */
using ::pipe_t;
using ::PIPE_S;
using ::PIPE_V;
using ::PIPE_M;
using ::PIPE_MTE1;
using ::PIPE_MTE2;
using ::PIPE_MTE3;
using ::PIPE_ALL;
using ::PIPE_FIX;

/* ---- intra-core events: source pipe _ destination pipe ---- */
enum class HardEvent : uint8_t {
    MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V, MTE3_MTE1, MTE1_MTE3,
    MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3, S_V, V_S, S_MTE2, MTE2_S, S_MTE3, MTE3_S,
    MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3, MTE1_FIX, FIX_MTE1, FIX_FIX, MAX,
};

using ::EVENT_ID0;
using ::EVENT_ID1;
using ::EVENT_ID2;
using ::EVENT_ID3;
using ::EVENT_ID4;
using ::EVENT_ID5;
using ::EVENT_ID6;
using ::EVENT_ID7;
using ::TEventID;
using ::event_t;

/* Where a local buffer lives (LocalMemAllocator). */
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

template <typename T, typename U> struct IsSameType {
    static constexpr bool value = std::is_same<T, U>::value;
};
template <bool cond, typename T, typename F> struct Conditional {
    using type = typename std::conditional<cond, T, F>::type;
};

/* ---- the block ---- */
inline int64_t GetTaskRation()
{
    dv_k_t *c = dvac::k();
    return dvk_kind(c) == DV_KIND_MIX && dvk_sub(c) != DV_SUB_AIC ? (int64_t)dvk_config(c)->chip_aiv_per_core : 1;
}
inline int64_t GetTaskRatio() { return GetTaskRation(); }
/* The AIV of a mix block b is block b * ration + its index within the AI core (as on dav-2201). */
inline int64_t GetBlockIdx()
{
    dv_k_t *c = dvac::k();
    if (dvk_kind(c) == DV_KIND_MIX && dvk_sub(c) != DV_SUB_AIC)
        return (int64_t)dvk_block_idx(c) * GetTaskRation() + (int64_t)(dvk_sub(c) - DV_SUB_AIV0);
    return dvk_block_idx(c);
}
inline int64_t GetBlockNum() { return dvk_block_num(dvac::k()); }
inline int64_t GetSubBlockIdx()
{
    dv_k_t *c = dvac::k();
    return dvk_kind(c) == DV_KIND_MIX && dvk_sub(c) != DV_SUB_AIC ? (int64_t)(dvk_sub(c) - DV_SUB_AIV0) : 0;
}
inline int64_t GetSubBlockNum() { return GetTaskRation(); }

} // namespace AscendC

/* CCE's block registers, as kernel code reads them (the physical block: an AIV of a mix block reads
 * the AI core's index here, not GetBlockIdx's). */
#define block_idx ((int64_t)dvk_block_idx(::dvac::k()))
#define block_num ((int64_t)dvk_block_num(::dvac::k()))

#define ASCEND_IS_AIV (::dvac::is_aiv())
#define ASCEND_IS_AIC (::dvac::is_aic())
#define ASCEND_IS_NOT_AIV (!::dvac::is_aiv())
#define ASCEND_IS_NOT_AIC (!::dvac::is_aic())

/* The kernel type macro: the kind follows from what the code does (dvk_kernel_probe), so the
 * declaration only has to compile. */
enum KernelMetaType {
    KERNEL_TYPE_AIV_ONLY, KERNEL_TYPE_AIC_ONLY, KERNEL_TYPE_MIX_AIV_1_0, KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1, KERNEL_TYPE_MIX_AIC_1_2, KERNEL_TYPE_MAX,
};
#define KERNEL_TASK_TYPE_DEFAULT(type) ((void)(type))
#define KERNEL_TASK_TYPE(key, type) ((void)(key), (void)(type))

#endif
