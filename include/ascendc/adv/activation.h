/* adv/activation.h - Ascend C high-level API, activation (Gelu, Sigmoid, Swish, SwiGLU, GeGLU, SoftMax and its family): kernel side, built on the basic
 * vector API (dvac/vec*.h) as CANN builds it.  docs/ASCENDC.md, "Advanced APIs", lists what each emits. */
#ifndef DVSIM_ADV_ACTIVATION_H
#define DVSIM_ADV_ACTIVATION_H

#include "../dvac/core.h"
#include "../dvac/tensor.h"

#endif
