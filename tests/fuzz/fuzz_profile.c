/* tests/fuzz/fuzz_profile.c - the YAML profile loader (configs/SCHEMA.md) and its cross-checks. */
#include "fuzz.h"

#include "dv/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    dv_config_t cfg;
    dv_error_t err;
    if (dv_config_load_text(&cfg, (const char *)data, size, "fuzz.yaml", &err) == DV_OK)
        dv_config_validate(&cfg, &err);
    return 0;
}
