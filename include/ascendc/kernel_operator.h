/* kernel_operator.h - dvsim's Ascend C (Atlas A2, dav-2201): the kernel API of CANN's Ascend C,
 * implemented on dvsim's kernel API (dv/kapi.h) so that Ascend C kernels run on the model.  See
 * docs/ASCENDC.md for what is implemented, how each API maps to instructions, and what is not
 * (an API that is not declared here fails to compile, naming it). */
#ifndef DVSIM_KERNEL_OPERATOR_H
#define DVSIM_KERNEL_OPERATOR_H

#include "dvac/core.h"
#include "dvac/tensor.h"
#include "dvac/sync.h"
#include "dvac/copy.h"
#include "dvac/block_sync.h"
#if __has_include("dvac/vec.h")
#include "dvac/vec.h"
#endif
#if __has_include("dvac/cube.h")
#include "dvac/cube.h"
#endif
#include "dvac/util.h"
#include "dvac/common.h"
#include "dvac/std.h"
#include "dvac/list_tensor.h"
#include "adv/activation.h"
#include "adv/normalization.h"
#include "adv/math.h"
#include "adv/reduce_sort.h"
#include "adv/transform.h"
#include "kernel_tiling/kernel_tiling.h"
#include "dvac/launch.h"

#endif
