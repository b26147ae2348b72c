/* adv/reduce_sort_tiling.h - Ascend C high-level API, reduction, sort and filter (ReduceMax, Sum, Sort, TopK, Dropout, Select, Arange): the tiling structs the
 * kernel reads (global namespace and AscendC::tiling, CANN's field order), their host classes (optiling) and
 * the host functions that size temporary buffers and fill the tilings. */
#ifndef DVSIM_ADV_REDUCE_SORT_TILING_H
#define DVSIM_ADV_REDUCE_SORT_TILING_H

#include <cstdint>

#include "../register/tilingdata_base.h"
#include "../tiling/shape.h"

#endif
