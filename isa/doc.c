/* isa/doc.c - docs/ISA.md, written entirely from isa/isa.def and isa/fields.def (tools/gendoc isa). */
#include <stdio.h>
#include <string.h>

#include "banner.h"
#include "dv/isa.h"

void dv_doc_isa(FILE *out);

/* Markdown table cell text: escape the characters a table or emphasis would eat. */
static void md(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|' || *s == '*' || *s == '_' || *s == '\\' || *s == '`' || *s == '<')
            fputc('\\', out);
        fputc(*s, out);
    }
}

static const char *kind_name(dv_field_kind_t k)
{
    switch (k) {
    case DV_FK_ADDR: return "ADDR";
    case DV_FK_INT: return "INT";
    case DV_FK_BOOL: return "BOOL";
    case DV_FK_DTYPE: return "DTYPE";
    case DV_FK_PIPE: return "PIPE";
    case DV_FK_F64: return "F64";
    case DV_FK_U64: return "U64";
    case DV_FK_QUANT: return "QUANT";
    case DV_FK_CMP: return "CMP";
    case DV_FK_ROUND: return "ROUND";
    }
    return "?";
}

/* The symbolic value of an enumerated field kind, NULL for numeric kinds. */
static const char *value_name(dv_field_kind_t k, int v)
{
    switch (k) {
    case DV_FK_PIPE: return dv_pipe_name((dv_pipe_t)v);
    case DV_FK_QUANT: return dv_quant_name(v);
    case DV_FK_CMP: return dv_cmp_name(v);
    case DV_FK_ROUND: return dv_round_name(v);
    case DV_FK_DTYPE: return dv_dtype_name((dv_dtype_t)v);
    default: return NULL;
    }
}

static void doc_field(FILE *out, const dv_field_spec_t *fd)
{
    fprintf(out, "| `%s` | %s | ", fd->name, kind_name(fd->kind));
    if (fd->kind != DV_FK_ADDR)
        fputs("—", out);
    else if (fd->space == DV_FS_DST)
        fputs("the instruction's dst space", out);
    else if (fd->space == DV_FS_SRC)
        fputs("the instruction's src space", out);
    else
        fprintf(out, "%s", dv_space_name((dv_space_t)fd->space));
    fputs(" | ", out);
    switch (fd->kind) {
    case DV_FK_ADDR: fputs("40-bit byte offset", out); break;
    case DV_FK_INT:
    case DV_FK_BOOL: fprintf(out, "%lld .. %lld", (long long)fd->min, (long long)fd->max); break;
    case DV_FK_DTYPE: fputs("the instruction's dtypes", out); break;
    case DV_FK_F64: fputs("any double", out); break;
    case DV_FK_U64: fputs("any 64-bit word", out); break;
    default:
        for (int v = (int)fd->min; v <= (int)fd->max; v++)
            fprintf(out, "%s`%s`", v > fd->min ? " " : "", value_name(fd->kind, v));
    }
    fputs(" | ", out);
    if (fd->required)
        fputs("required", out);
    else if (value_name(fd->kind, (int)fd->def))
        fprintf(out, "`%s`", value_name(fd->kind, (int)fd->def));
    else
        fprintf(out, "%lld", (long long)fd->def);
    fputs(" |\n", out);
}

static int form_has_addr(const dv_form_spec_t *fs)
{
    for (int i = 0; i < fs->nfields; i++)
        if (fs->fields[i].kind == DV_FK_ADDR)
            return 1;
    return 0;
}

static void lower(char *dst, const char *src, size_t cap)
{
    size_t i = 0;
    for (; src[i] && i + 1 < cap; i++)
        dst[i] = (char)(src[i] >= 'A' && src[i] <= 'Z' ? src[i] - 'A' + 'a' : src[i]);
    dst[i] = '\0';
}

void dv_doc_isa(FILE *out)
{
    char anchor[64];
    fputs(DV_BANNER_MD("make docs", "isa/isa.def and isa/fields.def", "isa/doc.c") "\n\n", out);
    fputs("# Da Vinci AI Core instruction set (dvsim)\n\n", out);
    fprintf(out,
            "%d instructions, %d operand forms, %d pipes, %d address spaces, %d element types, %d cost classes. "
            "Instruction names follow the CCE intrinsics; their text form in a trace is specified in "
            "[traces/FORMAT.md](../traces/FORMAT.md): the mnemonic, then `name=value` for the fields of its operand "
            "form below.\n\n",
            DV_OP_COUNT, DV_FORM_COUNT, DV_PIPE_COUNT, DV_SPACE_COUNT, DV_DT_COUNT, DV_COST_COUNT);

    fputs("## Pipes\n\n| Pipe | Ratio name | Description |\n|---|---|---|\n", out);
#define DV_PIPE(id, name, ratio, desc) fputs("| `" name "` | `" ratio "` | ", out), md(out, desc), fputs(" |\n", out);
#include "isa.def"
    fputs("\n`ALL` is accepted as a barrier target where a field allows it.\n\n", out);

    fputs("## Address spaces\n\n| Space | Description |\n|---|---|\n", out);
#define DV_SPACE(id, name, desc) fputs("| `" name "` | ", out), md(out, desc), fputs(" |\n", out);
#include "isa.def"

    fputs("\n## Element types\n\n| Dtype | Bytes | Float | Description |\n|---|---|---|---|\n", out);
#define DV_DTYPE(id, name, bytes, is_float, desc) \
    fprintf(out, "| `%s` | %d | %s | ", name, bytes, (is_float) ? "yes" : "no"), md(out, desc), fputs(" |\n", out);
#include "isa.def"

    fputs("\n## Cost classes\n\nHow the model times an instruction.\n\n| Class | Description |\n|---|---|\n", out);
#define DV_COST(id, name, desc) fputs("| `" name "` | ", out), md(out, desc), fputs(" |\n", out);
#include "isa.def"
    fputs("\n### Vector cost classes\n\nEach owns the profile section `vector.<name>`.\n\n"
          "| Class | Profile section | Covers |\n|---|---|---|\n",
          out);
#define DV_VCOST(id, name, desc) fputs("| `v_" name "` | `vector." name "` | ", out), md(out, desc), fputs(" |\n", out);
#include "isa.def"

    fputs("\n## vconv conversions\n\n`vconv` accepts exactly these `src_type -> dst_type` pairs.\n\n"
          "| src_type | dst_type |\n|---|---|\n",
          out);
#define DV_CONV(s, d) fprintf(out, "| `%s` | `%s` |\n", dv_dtype_name(DV_DT_##s), dv_dtype_name(DV_DT_##d));
#include "isa.def"

    fputs("\n## Operand forms\n\nFields in print order (the order of the canonical trace text). "
          "Kinds: ADDR `SPACE:OFFSET` or `ARG+OFFSET`; INT and BOOL integers; DTYPE, PIPE, QUANT, CMP, ROUND names; "
          "F64 a floating-point number; U64 a 64-bit word (see traces/FORMAT.md).\n",
          out);
    for (int f = 0; f < DV_FORM_COUNT; f++) {
        const dv_form_spec_t *fs = dv_form_spec((dv_form_t)f);
        fprintf(out, "\n### %s\n\n", fs->name);
        md(out, fs->desc);
        fputs(".\n\nUsed by:", out);
        for (int op = 0; op < DV_OP_COUNT; op++)
            if (dv_op_spec((dv_op_t)op)->form == (dv_form_t)f)
                fprintf(out, " `%s`", dv_op_spec((dv_op_t)op)->mnemonic);
        fputs(".\n\n", out);
        if (fs->nfields == 0) {
            fputs("No fields.\n", out);
            continue;
        }
        fputs("| Field | Kind | Space | Range | Default |\n|---|---|---|---|---|\n", out);
        for (int i = 0; i < fs->nfields; i++)
            doc_field(out, &fs->fields[i]);
    }

    fputs("\n## Instructions\n\n| Mnemonic | Pipe | Form | Cost class | Dst | Src | Dtypes | Description |\n"
          "|---|---|---|---|---|---|---|---|\n",
          out);
    for (int op = 0; op < DV_OP_COUNT; op++) {
        const dv_op_spec_t *os = dv_op_spec((dv_op_t)op);
        const dv_form_spec_t *fs = dv_form_spec(os->form);
        int addr = form_has_addr(fs);
        lower(anchor, fs->name, sizeof anchor);
        fprintf(out, "| `%s` | %s | [%s](#%s) | `%s` | %s | %s | ", os->mnemonic, dv_pipe_name(os->pipe), fs->name,
                anchor, dv_cost_name(os->cost), addr ? dv_space_name(os->dst_space) : "—",
                addr ? dv_space_name(os->src_space) : "—");
        if (os->dtypes) {
            int first = 1;
            for (int t = 0; t < DV_DT_COUNT; t++)
                if (os->dtypes & (1u << t)) {
                    fprintf(out, "%s%s", first ? "" : " ", dv_dtype_name((dv_dtype_t)t));
                    first = 0;
                }
        } else {
            fputs(os->form == DV_FORM_VCONV ? "vconv pairs" : "—", out);
        }
        fputs(" | ", out);
        md(out, os->desc);
        fputs(" |\n", out);
    }
}
