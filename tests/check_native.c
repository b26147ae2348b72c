/* tests/check_native.c - dvcc's native-code count (ascendc/native.h): which instructions count, where
 * each region's add goes, when the flags are saved, and what is refused. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ascendc/native.h"

Suite *dv_native_suite(void);

#define PREFIX "/opt/dvsim"
#define HEAD                                                                                                           \
    "\t.file\t\"k.asc.cpp\"\n"                                                                                         \
    "\t.text\n"                                                                                                        \
    "\t.file 1 \"k.asc\"\n"                                                                                            \
    "\t.file 2 \"" PREFIX "/include/ascendc/dvac/tensor.h\"\n"                                                         \
    "\t.file 3 \"/usr/include/c++/12/bits/stl_algobase.h\"\n"                                                          \
    "\t.file 4 \"/home/u/proj\" \"tiling.h\"\n"                                                                        \
    "\t.file 5 \"<built-in>\"\n"
#define TAIL "\t.ident\t\"GCC: (Debian 12.2.0-14) 12.2.0\"\n\t.section\t.note.GNU-stack,\"\",@progbits\n"
#define ADD(n) "\taddq\t$" #n ", dvcc_native_ops(%rip)\n"
#define SAVED(n) "\tleaq\t-128(%rsp), %rsp\n\tpushfq\n" ADD(n) "\tpopfq\n\tleaq\t128(%rsp), %rsp\n"

/* Instrument HEAD in TAIL and compare with HEAD want TAIL; blocks is the number of adds expected. */
static void expect(const char *in, const char *want, size_t blocks)
{
    char text[8192], expected[8192], why[128] = "";
    snprintf(text, sizeof text, "%s%s%s", HEAD, in, TAIL);
    snprintf(expected, sizeof expected, "%s%s%s", HEAD, want, TAIL);
    size_t n = 0, b = 99;
    char *out = dvcc_native_instrument(text, strlen(text), PREFIX, &n, &b, why, sizeof why);
    ck_assert_msg(out != NULL, "refused: %s", why);
    ck_assert_str_eq(out, expected);
    ck_assert_uint_eq(n, strlen(expected));
    ck_assert_uint_eq(b, blocks);
    free(out);
}

/* The user's instructions count, moves and dvsim's or the system's code do not; a conditional jump
 * ends a region and its fall-through starts the next; a region of no counted work gets nothing. */
START_TEST(test_native_counts_user_operations)
{
    const char *body = "\t.globl\tk\n"
                       "\t.type\tk, @function\n"
                       "k:\n"
                       ".LFB0:\n"
                       "\t.loc 1 10 5\n"
                       "\tmovl\t(%rdi), %eax\n"   /* a move: not counted */
                       "\timull\t$3, %eax, %eax\n" /* counted */
                       "\t.loc 2 57 1\n"
                       "\taddl\t$1, %ecx\n"        /* dvsim's header: not counted */
                       "\t.loc 4 3 1\n"
                       "\tleal\t4(%rax), %edx\n"   /* the user's header: counted */
                       "\t.loc 1 11 5\n"
                       "\ttestl\t%eax, %eax\n"     /* counted */
                       "\tjne\t.L3\n"              /* counted, ends the region */
                       "\t.loc 3 200 1\n"
                       "\txorl\t%eax, %eax\n"      /* the system's: the fall-through region has no work */
                       "\tret\n"
                       ".L3:\n"
                       "\t.loc 1 12 5\n"
                       "\tsubl\t$1, %eax\n"
                       "\t.loc 5 1 1\n"
                       "\tnegl\t%eax\n"
                       "\t.loc 1 13 1\n"
                       "\tret\n";
    const char *want = "\t.globl\tk\n"
                       "\t.type\tk, @function\n"
                       "k:\n"
                       ".LFB0:\n"
                       "\t.loc 1 10 5\n" ADD(4) "\tmovl\t(%rdi), %eax\n"
                       "\timull\t$3, %eax, %eax\n"
                       "\t.loc 2 57 1\n"
                       "\taddl\t$1, %ecx\n"
                       "\t.loc 4 3 1\n"
                       "\tleal\t4(%rax), %edx\n"
                       "\t.loc 1 11 5\n"
                       "\ttestl\t%eax, %eax\n"
                       "\tjne\t.L3\n"
                       "\t.loc 3 200 1\n"
                       "\txorl\t%eax, %eax\n"
                       "\tret\n"
                       ".L3:\n"
                       "\t.loc 1 12 5\n" ADD(2) "\tsubl\t$1, %eax\n"
                       "\t.loc 5 1 1\n"
                       "\tnegl\t%eax\n"
                       "\t.loc 1 13 1\n"
                       "\tret\n";
    expect(body, want, 2);
}
END_TEST

/* Where the flags may be live (read before anything writes them all) the add keeps them: pushfq and
 * popfq below the red zone; a call, a full write or a return makes them dead. */
START_TEST(test_native_keeps_live_flags)
{
    const char *body = "f:\n"
                       "\t.loc 1 20 1\n"
                       "\tcmpl\t%esi, %edi\n"
                       "\tjg\t.L7\n"
                       "\tsete\t%al\n"  /* reads the flags of the cmp above */
                       "\taddl\t%eax, %edx\n"
                       "\tjmp\t.L8\n"
                       ".L7:\n"
                       "\tleal\t1(%rdi), %eax\n" /* neither: then a call */
                       "\tcall\tg@PLT\n"
                       ".L8:\n"
                       "\tleal\t2(%rdi), %eax\n"
                       "\tjmp\t.L9\n" /* undecided at the region's end: kept */
                       ".L9:\n"
                       "\tret\n";
    const char *want = "f:\n"
                       "\t.loc 1 20 1\n" ADD(2) "\tcmpl\t%esi, %edi\n"
                       "\tjg\t.L7\n" SAVED(3) "\tsete\t%al\n"
                       "\taddl\t%eax, %edx\n"
                       "\tjmp\t.L8\n"
                       ".L7:\n" ADD(2) "\tleal\t1(%rdi), %eax\n"
                       "\tcall\tg@PLT\n"
                       ".L8:\n" SAVED(2) "\tleal\t2(%rdi), %eax\n"
                       "\tjmp\t.L9\n"
                       ".L9:\n" ADD(1) "\tret\n";
    expect(body, want, 5);
}
END_TEST

/* The add goes after an endbr64; code after an unconditional jump is its own region; labels of a
 * data section, GCC's non-target labels (.LVL, .LFB) and a section change are handled. */
START_TEST(test_native_regions_and_sections)
{
    const char *body = "h:\n"
                       "\tendbr64\n"
                       "\t.loc 1 30 1\n"
                       "\taddl\t$1, %edi\n"
                       ".LVL4:\n"
                       "\timull\t%edi, %edi\n"
                       "\tjmp\t*%rax\n"
                       "\tnegl\t%edi\n" /* unreachable: its own region */
                       "\t.section\t.rodata\n"
                       ".L12:\n"
                       "\t.long\t.L3-.L12\n"
                       "\t.text\n"
                       "\tnotrack jmp\t*%rdx\n"
                       "\t.section\t.text.unlikely,\"ax\",@progbits\n"
                       "h.cold:\n"
                       "\tnop\n"
                       "\tud2\n";
    const char *want = "h:\n"
                       "\tendbr64\n" ADD(3) "\t.loc 1 30 1\n"
                       "\taddl\t$1, %edi\n"
                       ".LVL4:\n"
                       "\timull\t%edi, %edi\n"
                       "\tjmp\t*%rax\n" ADD(1) "\tnegl\t%edi\n"
                       "\t.section\t.rodata\n"
                       ".L12:\n"
                       "\t.long\t.L3-.L12\n"
                       "\t.text\n" SAVED(1) "\tnotrack jmp\t*%rdx\n"
                       "\t.section\t.text.unlikely,\"ax\",@progbits\n"
                       "h.cold:\n" SAVED(1) "\tnop\n"
                       "\tud2\n";
    expect(body, want, 4);
}
END_TEST

/* Assembly that is not GCC's is refused, with the reason. */
START_TEST(test_native_refuses_other_compilers)
{
    const char *text = "\t.text\nf:\n\t.loc 1 1 1\n\tret\n\t.ident\t\"clang version 16\"\n";
    char why[128] = "";
    size_t n = 0, b = 0;
    ck_assert_ptr_null(dvcc_native_instrument(text, strlen(text), PREFIX, &n, &b, why, sizeof why));
    ck_assert_str_eq(why, "the assembly is not GCC's (no .ident \"GCC: ...\")");
}
END_TEST

Suite *dv_native_suite(void)
{
    Suite *s = suite_create("native");
    TCase *tc = tcase_create("instrument");
    tcase_add_test(tc, test_native_counts_user_operations);
    tcase_add_test(tc, test_native_keeps_live_flags);
    tcase_add_test(tc, test_native_regions_and_sections);
    tcase_add_test(tc, test_native_refuses_other_compilers);
    suite_add_tcase(s, tc);
    return s;
}
