/* tests/fuzz/fuzz_sweep.c - the what-if sweep spec (docs/SWEEP.md): the YAML, its axes and workloads,
 * and every point expanded and planned before anything runs.  The spec is read from a file (as
 * dv_sweep_load takes it) in the scratch directory; workload paths in it resolve next to that file. */
#include "fuzz.h"

#include <stdio.h>
#include <unistd.h>

#include "dv/sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/dvsim-fuzz-sweep-%d.yaml", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    const size_t wrote = fwrite(data, 1, size, f);
    if (fclose(f) != 0 || wrote != size)
        return 0;
    dv_sweep_t *s = NULL;
    dv_error_t err;
    if (dv_sweep_load(path, &s, &err) == DV_OK)
        dv_sweep_free(s);
    unlink(path);
    return 0;
}
