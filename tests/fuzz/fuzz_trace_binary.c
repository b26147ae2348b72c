/* tests/fuzz/fuzz_trace_binary.c - the binary trace reader (traces/FORMAT.md section 10): magic,
 * header, trailer and stream index, then every record of every stream. */
#include "fuzz.h"

#include "dv/kernel.h"
#include "dv/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    dv_kernel_t *k = NULL;
    dv_error_t err;
    if (dv_trace_open_bytes(data, size, "fuzz.dvtb", &k, &err) == DV_OK) {
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
        dv_trace_close(k);
    }
    return 0;
}
