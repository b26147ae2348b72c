/* tests/fuzz/fuzz_set.c - --set: each line of the input is a "section.key=value" applied to the
 * default preset, then the profile's cross-checks. */
#include "fuzz.h"

#include "dv/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const dv_config_t *base = fuzz_preset();
    dv_error_t err;
    char *text = fuzz_text(data, size), *line[64];
    if (!text || !base)
        return free(text), 0;
    dv_config_t cfg = *base;
    const int n = fuzz_split(text, "\n", line, 64);
    int rc = DV_OK;
    for (int i = 0; i < n && rc == DV_OK; i++)
        rc = dv_config_set(&cfg, line[i], &err);
    if (rc == DV_OK)
        dv_config_validate(&cfg, &err);
    free(text);
    return 0;
}
