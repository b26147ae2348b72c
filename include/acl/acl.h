/* acl/acl.h - the AscendCL entry header: process-wide initialisation, the interface version and the
 * most recent error message, plus (through acl_rt.h) the whole runtime.  dvsim has no model or
 * single-operator execution, so unlike CANN's acl.h this one does not include acl_op.h or acl_mdl.h. */
#ifndef ACL_ACL_H
#define ACL_ACL_H

#include <stdint.h>

#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Initialise AscendCL for the process; configPath names a JSON configuration file or is NULL. */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);
/* Release everything aclInit set up. */
ACL_FUNC_VISIBILITY aclError aclFinalize(void);
/* Drop one reference taken by aclInit and report how many remain; finalises when none do. */
ACL_FUNC_VISIBILITY aclError aclFinalizeReference(uint64_t *refCount);
/* The interface version (ACL_MAJOR_VERSION.ACL_MINOR_VERSION.ACL_PATCH_VERSION). */
ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion);
/* The message of the calling thread's most recent error, or NULL when there is none. */
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void);

#ifdef __cplusplus
}
#endif
#endif
