/* tests/fuzz/fuzz_graph.c - the operator-graph reader of dvsim fusion (docs/FUSION.md): YAML, the
 * nodes' operators and parameters, shapes inferred node by node. */
#include "fuzz.h"

#include "dv/graph.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static dv_graph_t g;
    dv_error_t err;
    char *text = fuzz_text(data, size); /* NUL-terminated, as a file read whole is */
    if (text)
        dv_graph_parse(text, size, "fuzz.yaml", &g, &err);
    free(text);
    return 0;
}
