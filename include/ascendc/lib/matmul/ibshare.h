/* lib/matmul/ibshare.h - the IBShare template of the Matmul API (CANN's GetIBShareNormConfig and
 * CFG_IBSHARE_NORM, include/adv_api/matmul/tiling.h).  IBShare lets the AIVs of one AI core share the
 * A or B matrix in L1 (MatmulType's IBSHARE); dvsim runs its one data path for it (lib/matmul_intf.h),
 * so the result is the same and only CANN's L1 reuse is not modelled. */
#ifndef DVSIM_LIB_MATMUL_IBSHARE_H
#define DVSIM_LIB_MATMUL_IBSHARE_H

#include "matmul_config.h"

/* GetIBShareNormConfig and CFG_IBSHARE_NORM are constant_tiling.h's (via matmul_config.h). */
namespace AscendC {
using ::CFG_IBSHARE_NORM;
using ::GetIBShareNormConfig;
} // namespace AscendC

#endif
