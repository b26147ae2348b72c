/* dvac/act_extra.h - what the activation samples use that the basic layer does not define yet:
 * ASSERT(cond), CANN's kernel assertion (kernel_utils): a failure stops the kernel, located;
 * memcpy_s, the bounds-checked copy of the securec library CANN's host headers bring in;
 * min / max, the scalar builtins of CANN's kernel compiler (non-template overloads, so that with
 * `using namespace std` a call of one type still picks them over std::min / std::max). */
#ifndef DVAC_ACT_EXTRA_H
#define DVAC_ACT_EXTRA_H

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "util.h"

#ifndef ASSERT
#define ASSERT(cond) ::dvac::kernel_assert((cond), #cond, ::dvac::Loc::here())
#endif

#ifndef DVSIM_SCALAR_MIN_MAX
#define DVSIM_SCALAR_MIN_MAX
#define DVAC_SCALAR_MIN_MAX(T)                                                                                       \
    inline T min(T a, T b) { return b < a ? b : a; }                                                                 \
    inline T max(T a, T b) { return a < b ? b : a; }
DVAC_SCALAR_MIN_MAX(int32_t)
DVAC_SCALAR_MIN_MAX(uint32_t)
DVAC_SCALAR_MIN_MAX(int64_t)
DVAC_SCALAR_MIN_MAX(uint64_t)
DVAC_SCALAR_MIN_MAX(float)
#undef DVAC_SCALAR_MIN_MAX
#endif

/* securec's memcpy_s: ../securec.h */
#include "../securec.h"

#endif
