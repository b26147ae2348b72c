/* tests/fuzz/fuzz.h - what the libFuzzer targets share (make fuzz; docs in tests/fuzz/README.md):
 * the input as a NUL-terminated string, and its split into lines or words. */
#ifndef DV_FUZZ_H
#define DV_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dv/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The default preset, loaded once; NULL if it does not load. */
static inline const dv_config_t *fuzz_preset(void)
{
    static dv_config_t cfg;
    static int state; /* 0: not tried, 1: loaded, 2: failed */
    dv_error_t err;
    if (!state)
        state = dv_config_preset(&cfg, dv_profile_names()[0], &err) == DV_OK ? 1 : 2;
    return state == 1 ? &cfg : NULL;
}

/* The input as a C string (a NUL byte inside ends what the parser sees, as in a C caller). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (s) {
        memcpy(s, data, size);
        s[size] = 0;
    }
    return s;
}

/* Split s in place at any of `seps`; at most cap pieces (empty ones skipped). */
static inline int fuzz_split(char *s, const char *seps, char **out, int cap)
{
    int n = 0;
    for (char *tok = strtok(s, seps); tok && n < cap; tok = strtok(NULL, seps))
        out[n++] = tok;
    return n;
}

#endif
