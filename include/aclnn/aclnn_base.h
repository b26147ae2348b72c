/* aclnn/aclnn_base.h - the aclnn objects (acl_meta.h) plus the optional library set-up calls. */
#ifndef ACLNN_ACLNN_BASE_H
#define ACLNN_ACLNN_BASE_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Optional set-up and tear-down of the operator library.  dvsim's operators need neither (the
 * device is what aclInit / aclrtSetDevice set up); both succeed.  configPath may be NULL. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInit(const char *configPath);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFinalize(void);

#ifdef __cplusplus
}
#endif
#endif
