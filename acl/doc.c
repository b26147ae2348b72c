/* acl/doc.c - docs/OP_SUMMARY.md, the columns of the profiler's op_summary.csv, written entirely
 * from acl/op_summary.def (tools/gendoc opsummary), and docs/ACLNN.md from acl/nnops.def (gendoc aclnn).  Linked into the tools, not into the shim. */
#include <stdio.h>

#include "banner.h"
#include "dv/ops.h"
#include "nn.h"

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

/* docs/ACLNN.md: the aclnn operators of acl/nnops.def, with the dtypes of the library operator each
 * runs (tools/gendoc aclnn). */
void dv_doc_aclnn(FILE *out);

/* The aclDataType names a library operator's --dtype accepts, into buf. */
static void aclnn_dtypes(const char *libop, char *buf, size_t cap)
{
    const dv_opdesc_t *op = dv_ops_find(libop);
    const int i = op ? dv_ops_param_index(op, "dtype") : -1;
    size_t n = 0;
    buf[0] = 0;
    for (int t = 0; i >= 0 && t < 64; t++) {
        const dv_acl_dtype_info_t *d = dv_acl_dtype_info((aclDataType)t);
        if (d && d->dv >= 0 && (op->params[i].dtypes & (1u << d->dv)) && n < cap)
            n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", d->name);
    }
}

void dv_doc_aclnn(FILE *out)
{
    static const struct {
        const char *api, *header, *sig, *libop, *optype, *params, *doc;
    } rows[] = {
#define DV_ACLNN(api, header, sig, libop, optype, factor, params, ws_q, stream_q, doc) \
    {#api, #header, #sig, #libop, optype, #params, doc},
#include "nnops.def"
    };
    fputs(DV_BANNER_MD("make docs", "acl/nnops.def", "acl/doc.c") "\n\n"
          "# aclnn operators\n\n"
          "Every aclnn operator of the AscendCL shim (docs/ACL.md), one row of `acl/nnops.def`. Each is a\n"
          "front for one operator of the library (docs/OPS.md, `dvsim op NAME`): its first phase,\n"
          "`aclnnXxxGetWorkspaceSize(<parameters>, uint64_t *workspaceSize, aclOpExecutor **executor)`, checks\n"
          "the arguments (161001 a NULL pointer, 161002 a shape, dtype, format or value dvsim does not take,\n"
          "with a message naming the parameter) and plans the library operator; its second phase,\n"
          "`aclnnXxx(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream)`,\n"
          "queues the kernel. Its header, `aclnnop/aclnn_<header>.h`, is generated from the table\n"
          "(tools/genaclnn.c). The dtypes are the library operator's. The binary element-wise operators\n"
          "broadcast their tensors (numpy rules: an expand kernel into the workspace first, docs/ACL.md) and\n"
          "promote mixed dtypes as torch does (a cast kernel first); any strides and offset (a view) work.\n"
          "Scalars (`other` of the scalar forms, `alpha`, `negativeSlope`) are held in the tensors' dtype.\n\n"
          "| aclnn operator | Header | Class | Library operator | dtypes | Parameters | Computes |\n"
          "|---|---|---|---|---|---|---|\n",
          out);
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        char dtypes[256];
        aclnn_dtypes(rows[r].libop, dtypes, sizeof dtypes);
        fprintf(out, "| `aclnn%s` | `aclnn_%s.h` | %s | `%s` | %s | `%s` | %s |\n", rows[r].api, rows[r].header,
                rows[r].sig, rows[r].libop, dtypes, rows[r].params, rows[r].doc);
    }
}
