/* kernel/trace_write.c - the trace writer: canonical text (traces/FORMAT.md section 5) of a kernel
 * header, its block markers and its instructions. */
#include "trace_syntax.h"

#include <stdio.h>
#include <string.h>

#include "dv/topology.h"

/* ---------------------------------------------------------------- writer */

static bool info_valid(const dv_kernel_info_t *info)
{
    if (!dv_trace_is_kernel_name(info->name, strlen(info->name)) || (unsigned)info->kind > DV_KIND_MIX || info->blocks < 1 ||
        info->blocks > BLOCKS_MAX || info->nargs > ARGS_MAX || (info->nargs && !info->args))
        return false;
    for (uint32_t a = 0; a < info->nargs; a++) {
        const dv_arg_t *g = &info->args[a];
        if (!dv_trace_is_ident(g->name, strlen(g->name)) || g->bytes < 1 || g->bytes > OFF_LIMIT ||
            (unsigned)g->dtype >= DV_DT_COUNT || (unsigned)g->dir > DV_ARG_INOUT || (unsigned)g->init > DV_INIT_FILE ||
            (unsigned)g->l2 > DV_L2_DISABLE)
            return false;
        if (g->init == DV_INIT_FILE) {
            size_t n = strlen(g->path);
            if (n == 0 || n >= sizeof g->path)
                return false;
            for (size_t i = 0; i < n; i++)
                if (is_space(g->path[i]) || g->path[i] == '#' || g->path[i] == '\n')
                    return false;
        }
        for (uint32_t b = 0; b < a; b++)
            if (strcmp(info->args[b].name, g->name) == 0)
                return false;
    }
    return true;
}

int dv_trace_write_header(FILE *out, const dv_kernel_info_t *info)
{
    if (!info_valid(info))
        return DV_ERR_RANGE;
    fprintf(out, "dvtrace %d\nkernel %s kind=%s blocks=%u\n", DV_TRACE_VERSION, info->name, dv_trace_kind_names[info->kind],
            info->blocks);
    for (uint32_t a = 0; a < info->nargs; a++) {
        const dv_arg_t *g = &info->args[a];
        fprintf(out, "arg %s bytes=%llu dtype=%s dir=%s init=", g->name, (unsigned long long)g->bytes,
                dv_dtype_name(g->dtype), dv_trace_dir_names[g->dir]);
        if (g->init == DV_INIT_RANDOM)
        {
            fprintf(out, "random:%llu", (unsigned long long)g->seed);
            if (g->lo != g->hi)
                fprintf(out, ":%.17g:%.17g", g->lo, g->hi);
        }
        else if (g->init == DV_INIT_FILE)
            fprintf(out, "file:%s", g->path);
        else
            fputs("zero", out);
        if (g->l2 != DV_L2_NORMAL) /* the default is left out, so traces without the field read back alike */
            fprintf(out, " l2=%s", dv_trace_l2_names[g->l2]);
        fputc('\n', out);
    }
    return ferror(out) ? DV_ERR_IO : DV_OK;
}

int dv_trace_write_block(FILE *out, const dv_kernel_info_t *info, uint32_t block, uint32_t sub)
{
    const uint32_t subs = info->kind == DV_KIND_MIX ? info->subs : 1;
    if (block >= info->blocks || sub >= subs || sub >= DV_SUB_MAX)
        return DV_ERR_RANGE;
    char name[16];
    if (info->kind == DV_KIND_MIX)
        fprintf(out, "block %u %s\n", block, dv_topo_sub_name(sub, name, sizeof name));
    else
        fprintf(out, "block %u\n", block);
    return ferror(out) ? DV_ERR_IO : DV_OK;
}

int dv_trace_write_insn(FILE *out, const dv_kernel_info_t *info, const dv_insn_t *insn)
{
    char buf[1024];
    int n = dv_trace_format_insn(insn, info, buf, sizeof buf);
    if (n < 0)
        return DV_ERR_RANGE;
    buf[n] = '\n';
    return fwrite(buf, 1, (size_t)n + 1, out) == (size_t)n + 1 ? DV_OK : DV_ERR_IO;
}

int dv_trace_write_end(FILE *out)
{
    fputs("end\n", out);
    return ferror(out) ? DV_ERR_IO : DV_OK;
}
