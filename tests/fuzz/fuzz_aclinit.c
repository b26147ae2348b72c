/* tests/fuzz/fuzz_aclinit.c - aclInit's JSON configuration (docs/ACL.md): the text read into profile
 * settings as aclInit reads its file, then each "set" entry applied to the default preset as aclInit's
 * profile would apply it.  "profile" and "config" entries are read but not loaded: a preset load parses
 * a whole YAML profile (fuzz_profile covers that loader), and a config file would be whatever path the
 * input names. */
#include "fuzz.h"

#include "../../acl/internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const dv_config_t *base = fuzz_preset();
    dv_acl_init_opts_t o;
    memset(&o, 0, sizeof o);
    if (base && dv_acl_init_json((const char *)data, size, "fuzz.json", &o) == ACL_SUCCESS) {
        dv_config_t cfg = *base;
        dv_error_t err;
        int rc = DV_OK;
        for (int i = 0; i < o.nops && rc == DV_OK; i++)
            if (o.ops[i].kind == DV_PROFILE_SET)
                rc = dv_config_set(&cfg, o.ops[i].arg, &err);
        if (rc == DV_OK)
            dv_config_validate(&cfg, &err);
    }
    dv_acl_init_opts_free(&o);
    return 0;
}
