/* tools/genkapi.c - write dv/kapi_insn.h: one inline dvk_<mnemonic>(k, operands...) per row of
 * isa/isa.def, its operands those of its form in isa/fields.def, in table order. */
#include <stdio.h>

#include "banner.h"

#include "dv/isa.h"

static const char *ctype(dv_field_kind_t kind)
{
    switch (kind) {
    case DV_FK_ADDR: return "uint64_t";
    case DV_FK_INT: return "int64_t";
    case DV_FK_BOOL: return "int";
    case DV_FK_DTYPE: return "dv_dtype_t";
    case DV_FK_PIPE: return "dv_pipe_t";
    case DV_FK_F64: return "double";
    case DV_FK_U64: return "uint64_t";
    default: return "int"; /* QUANT, CMP, ROUND: the DV_QUANT_ / DV_CMP_ / DV_ROUND_ values */
    }
}

static const char *member(dv_field_kind_t kind)
{
    return kind == DV_FK_F64 ? "d" : (kind == DV_FK_ADDR || kind == DV_FK_U64) ? "u" : "i";
}

int main(void)
{
    printf(DV_BANNER_C("make", "isa/isa.def and isa/fields.def", "tools/genkapi.c") "\n"
           "/* dv/kapi_insn.h - one function per instruction: dvk_<mnemonic>(k, operands in fields.def order). */\n"
           "#ifndef DV_KAPI_INSN_H\n#define DV_KAPI_INSN_H\n\n#include \"dv/kapi.h\"\n\n");
    for (int op = 0; op < DV_OP_COUNT; op++) {
        const dv_op_spec_t *os = dv_op_spec((dv_op_t)op);
        const dv_form_spec_t *fs = dv_form_spec(os->form);
        printf("/* %s (%s): %s */\nstatic inline void dvk_%s(dv_k_t *ctx_", os->mnemonic, dv_pipe_name(os->pipe),
               os->desc, os->mnemonic);
        for (int i = 0; i < fs->nfields; i++)
            printf(", %s %s", ctype(fs->fields[i].kind), fs->fields[i].name);
        printf(")\n{\n");
        if (fs->nfields) {
            printf("    dv_val_t f[%d];\n", fs->nfields);
            for (int i = 0; i < fs->nfields; i++)
                printf("    f[%d].%s = %s%s;\n", i, member(fs->fields[i].kind),
                       fs->fields[i].kind == DV_FK_F64 || fs->fields[i].kind == DV_FK_ADDR ||
                               fs->fields[i].kind == DV_FK_U64
                           ? ""
                           : "(int64_t)",
                       fs->fields[i].name);
            printf("    dvk_emit(ctx_, DV_OP_%s, f, %d);\n}\n\n", os->mnemonic, fs->nfields);
        } else {
            printf("    dvk_emit(ctx_, DV_OP_%s, 0, 0);\n}\n\n", os->mnemonic);
        }
    }
    printf("#endif\n");
    return 0;
}
