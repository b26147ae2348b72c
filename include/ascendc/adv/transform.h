/* adv/transform.h - Ascend C high-level API, data layout (Broadcast, Fill, Pad, UnPad, TransData, ConfusionTranspose): kernel side, built on the basic
 * vector API (dvac/vec*.h) as CANN builds it.  docs/ASCENDC.md, "Advanced APIs", lists what each emits. */
#ifndef DVSIM_ADV_TRANSFORM_H
#define DVSIM_ADV_TRANSFORM_H

#include "../dvac/core.h"
#include "../dvac/tensor.h"

#endif
