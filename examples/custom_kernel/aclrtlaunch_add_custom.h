/* aclrtlaunch_add_custom.h - the launch declaration CANN's ascendc_library() generates for a kernel
 * add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z): blockDim and stream first, then the kernel's
 * parameters with GM_ADDR as void *.  Host code calls ACLRT_LAUNCH_KERNEL(add_custom)(...). */
#ifndef ACLRTLAUNCH_ADD_CUSTOM_H
#define ACLRTLAUNCH_ADD_CUSTOM_H

#include <stdint.h>

#include "acl/acl_base.h"

#ifndef ACLRT_LAUNCH_KERNEL
#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func
#endif

#ifdef __cplusplus
extern "C" {
#endif
uint32_t aclrtlaunch_add_custom(uint32_t blockDim, aclrtStream stream, void *x, void *y, void *z);
#ifdef __cplusplus
}
#endif
#endif
