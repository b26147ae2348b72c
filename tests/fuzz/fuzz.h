/* tests/fuzz/fuzz.h - what the libFuzzer targets share (make fuzz; docs in tests/fuzz/README.md):
 * the input as a NUL-terminated string, and its split into lines or words. */
#ifndef DV_FUZZ_H
#define DV_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dv/config.h"
#include "dv/kernel.h"

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

/* Read every instruction of every stream of k, up to the first error (the trace readers' targets). */
static inline void fuzz_read_streams(dv_kernel_t *k)
{
    dv_error_t err;
    int rc = DV_OK;
    for (uint32_t b = 0; b < k->info.blocks && rc == DV_OK; b++)
        for (uint32_t s = 0; s < k->info.subs && rc == DV_OK; s++) {
            dv_stream_t *st;
            dv_insn_t in;
            if ((rc = k->open(k, b, s, &st, &err)) != DV_OK)
                break;
            while ((rc = st->next(st, &in, &err)) > 0)
                rc = DV_OK;
            st->close(st);
        }
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
