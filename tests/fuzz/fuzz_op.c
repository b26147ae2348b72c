/* tests/fuzz/fuzz_op.c - operator parameters: the input's words are "NAME --param value ...", as
 * dvsim op takes them; parsed, then planned on the default preset (the checks a run makes before
 * any kernel exists). */
#include "fuzz.h"

#include "dv/config.h"
#include "dv/ops.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const dv_config_t *cfg = fuzz_preset();
    dv_error_t err;
    char *text = fuzz_text(data, size), *word[64];
    if (!text || !cfg)
        return free(text), 0;
    const int n = fuzz_split(text, " \t\n", word, 64);
    const dv_opdesc_t *op = n > 0 ? dv_ops_find(word[0]) : NULL;
    static dv_opvals_t vals;
    static dv_op_plan_t plan;
    if (op && dv_ops_parse(op, n - 1, word + 1, &vals, &err) == DV_OK)
        dv_ops_plan(op, cfg, &vals, &plan, &err);
    free(text);
    return 0;
}
