/* tools/gendoc.c - write the generated reference pages from the tables.
 *   gendoc isa     -> docs/ISA.md        (isa/isa.def, isa/fields.def)
 *   gendoc schema  -> configs/SCHEMA.md  (configs/params.def)
 *   gendoc ops     -> docs/OPS.md        (the operator descriptors in ops/)
 *   gendoc opsummary -> docs/OP_SUMMARY.md (acl/op_summary.def: the profiler's CSV columns)
 *   gendoc micro   -> docs/MICRO.md      (bench/micro.def: the microbenchmarks)
 *   gendoc aclnn   -> docs/ACLNN.md      (acl/nnops.def: the aclnn operators) */
#include <stdio.h>
#include <string.h>

void dv_doc_isa(FILE *out);
void dv_doc_schema(FILE *out);
void dv_doc_ops(FILE *out);
void dv_doc_op_summary(FILE *out);
void dv_micro_doc(FILE *out);
void dv_doc_aclnn(FILE *out);

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "isa") == 0)
        dv_doc_isa(stdout);
    else if (argc == 2 && strcmp(argv[1], "schema") == 0)
        dv_doc_schema(stdout);
    else if (argc == 2 && strcmp(argv[1], "ops") == 0)
        dv_doc_ops(stdout);
    else if (argc == 2 && strcmp(argv[1], "opsummary") == 0)
        dv_doc_op_summary(stdout);
    else if (argc == 2 && strcmp(argv[1], "micro") == 0)
        dv_micro_doc(stdout);
    else if (argc == 2 && strcmp(argv[1], "aclnn") == 0)
        dv_doc_aclnn(stdout);
    else {
        fprintf(stderr, "usage: gendoc isa|schema|ops|opsummary|micro|aclnn\n");
        return 2;
    }
    return ferror(stdout) ? 1 : 0;
}
