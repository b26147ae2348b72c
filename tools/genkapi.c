/* tools/genkapi.c - write the kernel API's instruction functions, one dvk_<mnemonic>(k, operands...)
 * per row of isa/isa.def, its operands those of its form in isa/fields.def, in table order:
 *
 *   genkapi        dv/kapi_insn.h (installed): each hands its operands to dvk_emit.
 *   genkapi emit   kapi_emit_insn.h (internal, included by kernel/kapi_emit.h): each writes them into
 *                  the stream buffer's next slot and ends with the op's inline check and append; and,
 *                  under #ifdef DVK_EMIT_ANY, a function of that name that calls dvk_<mnemonic> for any
 *                  op with operands from an array, the same way (a test compares the two sets through
 *                  it, with DVK_EMIT_ANY_ONLY leaving the functions themselves to dv/kapi_insn.h). */
#include <stdio.h>
#include <string.h>

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

/* How operand i (of kind `kind`, parameter `name`) is stored in an operand array. */
static void print_store(const char *array, int i, dv_field_kind_t kind, const char *name)
{
    printf("    %s[%d].%s = %s%s;\n", array, i, member(kind),
           kind == DV_FK_F64 || kind == DV_FK_ADDR || kind == DV_FK_U64 ? "" : "(int64_t)", name);
}

int main(int argc, char **argv)
{
    const int emit = argc > 1 && strcmp(argv[1], "emit") == 0;
    if (emit)
        printf(DV_BANNER_C("make", "isa/isa.def and isa/fields.def", "tools/genkapi.c emit") "\n"
               "/* kapi_emit_insn.h - one function per instruction, dvk_<mnemonic>(k, operands in fields.def\n"
               " * order), written into the stream's next slot (kernel/kapi_emit.h, which includes this). */\n"
               "#ifndef DVK_EMIT_ANY_ONLY\n\n");
    else
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
        if (emit) {
            printf("    dv_insn_t *in_ = dvk_begin_(ctx_, DV_OP_%s, %d);\n", os->mnemonic, fs->nfields);
            for (int i = 0; i < fs->nfields; i++)
                print_store("in_->f", i, fs->fields[i].kind, fs->fields[i].name);
            printf("    dvk_end_%s_(ctx_, in_);\n}\n\n", os->mnemonic);
        } else if (fs->nfields) {
            printf("    dv_val_t f[%d];\n", fs->nfields);
            for (int i = 0; i < fs->nfields; i++)
                print_store("f", i, fs->fields[i].kind, fs->fields[i].name);
            printf("    dvk_emit(ctx_, DV_OP_%s, f, %d);\n}\n\n", os->mnemonic, fs->nfields);
        } else {
            printf("    dvk_emit(ctx_, DV_OP_%s, 0, 0);\n}\n\n", os->mnemonic);
        }
    }
    if (!emit) {
        printf("#endif\n");
        return 0;
    }
    printf("#endif\n\n#ifdef DVK_EMIT_ANY\n"
           "/* dvk_<mnemonic> of `op` with the operands f[0 .. its form's count) (each as its parameter's type) */\n"
           "static void DVK_EMIT_ANY(dv_k_t *k, dv_op_t op, const dv_val_t *f)\n{\n    (void)f;\n    switch (op) {\n");
    for (int op = 0; op < DV_OP_COUNT; op++) {
        const dv_op_spec_t *os = dv_op_spec((dv_op_t)op);
        const dv_form_spec_t *fs = dv_form_spec(os->form);
        printf("    case DV_OP_%s:\n        dvk_%s(k", os->mnemonic, os->mnemonic);
        for (int i = 0; i < fs->nfields; i++)
            printf(", (%s)f[%d].%s", ctype(fs->fields[i].kind), i, member(fs->fields[i].kind));
        printf(");\n        break;\n");
    }
    printf("    default:\n        break;\n    }\n}\n#endif\n");
    return 0;
}
