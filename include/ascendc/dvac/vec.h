/* dvac/vec.h - the vector API of dvsim's Ascend C (Atlas A2, dav-2201): masks and repeat parameters
 * (vec_core.h), element-wise arithmetic and Duplicate (vec_math.h), Cast (vec_cast.h), UB -> UB
 * DataCopy and Copy (vec_copy.h), Compare and Select (vec_cmpsel.h), the reductions (vec_reduce.h;
 * per datablock and per pair: vec_reduce_group.h), Brcb and Transpose (vec_layout.h), the compound
 * ops and shifts (vec_compound.h), Gather and Gatherb (vec_gather.h), Sort32 and MrgSort (vec_sort.h).
 * docs/ASCENDC.md, "Vector API", lists every API with the instructions it emits and the asc-devkit
 * file it was learned from. */
#ifndef DVAC_VEC_H
#define DVAC_VEC_H

#include "vec_core.h"
#include "vec_math.h"
#include "vec_cast.h"
#include "vec_copy.h"
#include "vec_reduce.h"
#include "vec_reduce_group.h"
#include "vec_cmpsel.h"
#include "vec_layout.h"
#include "vec_compound.h"
#include "vec_gather.h"
#include "vec_sort.h"

#endif
