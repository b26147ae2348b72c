/* tests/fuzz/fuzz_trace.c - the trace reader: header, block structure, then every instruction of
 * every stream (traces/FORMAT.md). */
#include "fuzz.h"

#include "dv/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    dv_kernel_t *k = NULL;
    dv_error_t err;
    if (text && dv_trace_open_string(text, "fuzz.trace", &k, &err) == DV_OK) {
        fuzz_read_streams(k);
        dv_trace_close(k);
    }
    free(text);
    return 0;
}
