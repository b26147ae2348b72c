/* ops/doc.c - docs/OPS.md, generated from the operator descriptors and the --check tolerances. */
#include <stdio.h>
#include <string.h>

#include "banner.h"
#include "dv/ops.h"

static const char *type_text(const dv_oparam_spec_t *s, char *buf, size_t cap)
{
    switch (s->type) {
    case DV_OPT_INT: snprintf(buf, cap, "integer %lld..%lld", (long long)s->min, (long long)s->max); break;
    case DV_OPT_BOOL: snprintf(buf, cap, "on / off"); break;
    case DV_OPT_DTYPE: {
        size_t n = 0;
        buf[0] = 0;
        static const char *const names[] = {"fp16", "bf16", "fp32", "int8", "uint8", "int16", "uint16", "int32", "uint32"};
        static const dv_dtype_t ts[] = {DV_DT_F16, DV_DT_BF16, DV_DT_F32, DV_DT_S8, DV_DT_U8,
                                        DV_DT_S16, DV_DT_U16, DV_DT_S32, DV_DT_U32};
        for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++)
            if (s->dtypes & (1u << ts[i]))
                n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "%s%s", n ? ", " : "", names[i]);
        break;
    }
    case DV_OPT_SHAPE: snprintf(buf, cap, "shape AxBx... (dims %lld..%lld)", (long long)s->min, (long long)s->max); break;
    case DV_OPT_TILE: snprintf(buf, cap, "RxC (%lld..%lld)", (long long)s->min, (long long)s->max); break;
    case DV_OPT_FLOAT: {
        char range[120];
        dv_ops_format_range(s, range, sizeof range);
        snprintf(buf, cap, "number in %s", range);
        break;
    }
    }
    return buf;
}

void dv_doc_ops(FILE *out)
{
    const dv_opdesc_t *const *all = dv_ops_all();
    fputs(DV_BANNER_MD("make docs", "the operator descriptors in ops/ and the tolerance table in ops/op.c", "ops/doc.c")
          "\n\n# Operator library\n\n"
          "`dvsim op NAME [--PARAM VALUE]... [--check]` runs one operator on random inputs; `dvsim op --list`\n"
          "prints the same parameters; `dvsim record NAME [--PARAM VALUE]... -o FILE` writes its kernel as a\n"
          "trace that `dvsim run` replays with the same cycles.  The kernels are C functions written with the\n"
          "kernel API (docs/KERNEL.md); each operator's file under ops/ explains its tiling.\n\n",
          out);
    fputs("## Operators\n\n", out);
    for (int i = 0; all[i]; i++)
        fprintf(out, "- [`%s`](#%s): %s\n", all[i]->name, all[i]->name, all[i]->desc);
    for (int i = 0; all[i]; i++) {
        const dv_opdesc_t *op = all[i];
        fprintf(out, "\n### %s\n\n%s\n\n| parameter | values | default | meaning |\n|---|---|---|---|\n", op->name, op->desc);
        for (int p = 0; p < op->nparams; p++) {
            char t[200];
            fprintf(out, "| `--%s` | %s | `%s` | %s |\n", op->params[p].name, type_text(&op->params[p], t, sizeof t),
                    op->params[p].def, op->params[p].desc);
        }
    }
    fputs("\n## Tilings that always fit\n\n"
          "A parameter given on the command line is a request; one left to its default is the plan's choice.\n"
          "When a choice of the plan does not fit the profile's buffers (sizes as the kernel allocates them:\n"
          "tiles no larger than the shape), the plan falls back, in a fixed order, until it fits; a value that\n"
          "was given and still cannot fit is an error that names it and the sizes.  The report's operator\n"
          "section lists the tiling used (`tiling`) and a `differs` line for each value that is not the\n"
          "request, with the reason (docs/REPORT.md).  The order:\n\n"
          "| operator | buffer | falls back, first to last |\n|---|---|---|\n"
          "| matmul | L0C (one C tile, base-m x base-n x 4 B) | base-n halves, then base-m (multiples of 16) |\n"
          "| matmul | L0A / L0B (ping-pong x base-m x base-k, base-k x base-n) | one buffer instead of two "
          "(`--double-buffer` left on by default), then base-k halves (32-byte multiples), then the side's base |\n"
          "| matmul | MTE2 -> MTE1 event ids (`sync.event_ids`; one per L1 buffer of A and of B, at most 8 per "
          "queue) | the automatic depth with more buffers to one load (depth = step), then the other |\n"
          "| matmul | L1 (depth-a1 x A slice + depth-b1 x B slice) | the side holding more bytes first: its "
          "automatic depth to one load (depth = step), then the other's; then an automatic step halves "
          "(larger side first; only where the depth is automatic too); then base-k halves; then base-m / base-n |\n"
          "| conv2d | L0C, L0A, L0B, then L1 (one channel group of the input band plus its weights) | one buffer "
          "per queue instead of two (`--double-buffer` left on by default), then the automatic base-m 16 "
          "positions smaller |\n"
          "| softmax, layernorm, rmsnorm | UB (one row's tiles and work space) | one buffer per queue instead "
          "of two |\n\n"
          "Automatic values that do not fit because of the shape itself (a tile larger than the matrix) are\n"
          "clamped to it and listed with the reason too.\n",
          out);
    fputs("\n## --check tolerances\n\n"
          "An output element passes when |got - want| <= atol + rtol x |want| (NaN matches only NaN, an\n"
          "infinity only the same infinity); integer outputs must be exact.  The references compute in double\n"
          "from the rounded inputs and round once to the output type, while the kernels round every\n"
          "intermediate result to the type they compute in, so the bounds are a few units in the last place.\n"
          "An operator may scale both bounds (its plan says why in the source).\n\n"
          "| dtype | atol | rtol |\n|---|---|---|\n",
          out);
    static const dv_dtype_t floats[] = {DV_DT_F16, DV_DT_BF16, DV_DT_F32};
    for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++) {
        double atol, rtol;
        dv_ops_tolerance(floats[i], &atol, &rtol);
        fprintf(out, "| %s | %g | %g |\n", dv_dtype_name(floats[i]), atol, rtol);
    }
    fputs("| integers | 0 | 0 |\n", out);
}
