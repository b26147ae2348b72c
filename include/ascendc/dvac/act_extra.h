/* dvac/act_extra.h - basic kernel macros the activation samples use that dvac/util.h does not define yet:
 * ASSERT(cond), CANN's kernel assertion (kernel_utils): a failure stops the kernel, located. */
#ifndef DVAC_ACT_EXTRA_H
#define DVAC_ACT_EXTRA_H

#include "util.h"

#ifndef ASSERT
#define ASSERT(cond) ::dvac::kernel_assert((cond), #cond, ::dvac::Loc::here())
#endif

#endif
