/* adv/reduce_sort.h - Ascend C high-level API, reduction, sort and filter (ReduceMax, Sum, Sort, TopK, Dropout, Select, Arange): kernel side, built on the basic
 * vector API (dvac/vec*.h) as CANN builds it.  docs/ASCENDC.md, "Advanced APIs", lists what each emits. */
#ifndef DVSIM_ADV_REDUCE_SORT_H
#define DVSIM_ADV_REDUCE_SORT_H

#include "../dvac/core.h"
#include "../dvac/tensor.h"

#endif
