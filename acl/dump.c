/* acl/dump.c - model and operator dump (acl/acl_dump.h, aclmdl*Dump): dvsim writes no dump data.
 * aclmdlInitDump / aclmdlFinalizeDump open and close a dump session with dump disabled, which is
 * what CANN does until aclmdlSetDump configures one; every call that would produce dump data returns
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT naming itself.  docs/ACL.md, "Runtime families". */
#include "internal.h"
#include "acl/acl_dump.h"

static bool g_dump_session;

static int no_dump(const char *api)
{
    int rc = dv_acl_check_init(api);
    return rc != ACL_SUCCESS ? rc
                             : dv_acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                           "%s: not supported: dvsim writes no dump data (kernel inputs and outputs are "
                                           "in device memory: copy them back with aclrtMemcpy)", api);
}

aclError aclmdlInitDump(void)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_init("aclmdlInitDump");
    if (rc == ACL_SUCCESS && g_dump_session)
        rc = dv_acl_fail(ACL_ERROR_DUMP_ALREADY_RUN, "aclmdlInitDump: a dump session is open (aclmdlFinalizeDump first)");
    if (rc == ACL_SUCCESS)
        g_dump_session = true;
    return rc;
}

aclError aclmdlSetDump(const char *dumpCfgPath)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_init("aclmdlSetDump");
    if (rc == ACL_SUCCESS && !g_dump_session)
        rc = dv_acl_fail(ACL_ERROR_DUMP_NOT_RUN, "aclmdlSetDump: no dump session is open (aclmdlInitDump first)");
    if (rc == ACL_SUCCESS && !dumpCfgPath)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclmdlSetDump: dumpCfgPath is NULL");
    return rc == ACL_SUCCESS ? no_dump("aclmdlSetDump") : rc;
}

aclError aclmdlFinalizeDump(void)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_init("aclmdlFinalizeDump");
    if (rc == ACL_SUCCESS && !g_dump_session)
        rc = dv_acl_fail(ACL_ERROR_DUMP_NOT_RUN, "aclmdlFinalizeDump: no dump session is open (aclmdlInitDump first)");
    if (rc == ACL_SUCCESS)
        g_dump_session = false;
    return rc;
}

aclError acldumpRegCallback(int32_t (*const messageCallback)(const acldumpChunk *, int32_t), int32_t flag)
{
    DV_ACL_LOCKED();
    (void)messageCallback, (void)flag;
    return no_dump("acldumpRegCallback");
}

void acldumpUnregCallback(void)
{
    /* acldumpRegCallback never registers one */
}

aclError aclopStartDumpArgs(uint32_t dumpType, const char *path)
{
    DV_ACL_LOCKED();
    (void)dumpType, (void)path;
    return no_dump("aclopStartDumpArgs");
}

aclError aclopStopDumpArgs(uint32_t dumpType)
{
    DV_ACL_LOCKED();
    (void)dumpType;
    return no_dump("aclopStopDumpArgs");
}

const char *acldumpGetPath(acldumpType dumpType)
{
    (void)dumpType; /* dump is off: there is no dump directory */
    return NULL;
}

aclError acldumpSaveExceptionInfo(const char *fileName, const char *userTag, const acldumpTensorInfo *tensors,
                                  size_t tensorCount)
{
    DV_ACL_LOCKED();
    (void)fileName, (void)userTag, (void)tensors, (void)tensorCount;
    return no_dump("acldumpSaveExceptionInfo");
}

aclError acldumpGetExceptionInfoPath(char *path, size_t maxLen)
{
    DV_ACL_LOCKED();
    (void)path, (void)maxLen;
    return no_dump("acldumpGetExceptionInfoPath");
}
