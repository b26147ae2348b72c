/* acl/doc.c - docs/OP_SUMMARY.md, the columns of the profiler's op_summary.csv, written entirely
 * from acl/op_summary.def (tools/gendoc opsummary).  Linked into the tools, not into the shim. */
#include <stdio.h>

#include "banner.h"

void dv_doc_op_summary(FILE *out);

void dv_doc_op_summary(FILE *out)
{
    static const struct {
        const char *header, *meaning;
    } cols[] = {
#define DV_OPSUM(id, header, meaning) {header, meaning},
#include "op_summary.def"
    };
    fputs(DV_BANNER_MD("make docs", "acl/op_summary.def", "acl/doc.c") "\n\n"
          "# op_summary.csv columns\n\n"
          "The AscendCL shim's profiling (docs/ACL.md) writes one row per kernel: msprof's op_summary columns\n"
          "for A2 chips with PipeUtilization metrics, then dvsim's own (marked dvsim). Ratios are derived from\n"
          "the model's counters by the report step (docs/REPORT.md).\n\n"
          "| # | Column | Value |\n|---|---|---|\n",
          out);
    for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
        fprintf(out, "| %zu | `%s` | %s |\n", c + 1, cols[c].header, cols[c].meaning);
}
