/* tests/fuzz/fuzz_trace_binary.c - the binary trace reader (traces/FORMAT.md section 10): magic,
 * header, trailer and stream index, then every record of every stream. */
#include "fuzz.h"

#include "dv/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    dv_kernel_t *k = NULL;
    dv_error_t err;
    if (dv_trace_open_bytes(data, size, "fuzz.dvtb", &k, &err) == DV_OK) {
        fuzz_read_streams(k);
        dv_trace_close(k);
    }
    return 0;
}
