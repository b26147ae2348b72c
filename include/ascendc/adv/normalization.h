/* adv/normalization.h - Ascend C high-level API, normalization and quantization (LayerNorm, RmsNorm, DeepNorm, Welford, Quant, Dequant, AntiQuant): kernel side, built on the basic
 * vector API (dvac/vec*.h) as CANN builds it.  docs/ASCENDC.md, "Advanced APIs", lists what each emits. */
#ifndef DVSIM_ADV_NORMALIZATION_H
#define DVSIM_ADV_NORMALIZATION_H

#include "../dvac/core.h"
#include "../dvac/tensor.h"

#endif
