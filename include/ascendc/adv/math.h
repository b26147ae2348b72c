/* adv/math.h - Ascend C high-level API, math (Acosh, Erf, Log, Power, Fmod, Ceil, Frac, Xor, ClampMin, CumSum, Axpy, ...): kernel side, built on the basic
 * vector API (dvac/vec*.h) as CANN builds it.  docs/ASCENDC.md, "Advanced APIs", lists what each emits. */
#ifndef DVSIM_ADV_MATH_H
#define DVSIM_ADV_MATH_H

#include "../dvac/core.h"
#include "../dvac/tensor.h"

#endif
