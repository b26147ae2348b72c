/* tests/check_isa.c - the instruction table (isa/isa.def, isa/fields.def) tested against itself,
 * and the generated reference page. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dv/isa.h"

Suite *dv_isa_suite(void);
void dv_doc_isa(FILE *out);

START_TEST(test_isa_mnemonics_unique)
{
    for (int a = 0; a < DV_OP_COUNT; a++)
        for (int b = a + 1; b < DV_OP_COUNT; b++)
            ck_assert_msg(strcmp(dv_op_spec((dv_op_t)a)->mnemonic, dv_op_spec((dv_op_t)b)->mnemonic) != 0,
                          "mnemonic %s appears twice", dv_op_spec((dv_op_t)a)->mnemonic);
}
END_TEST

START_TEST(test_isa_table_names_unique)
{
    for (int a = 0; a <= DV_PIPE_ALL; a++)
        for (int b = a + 1; b <= DV_PIPE_ALL; b++)
            ck_assert_str_ne(dv_pipe_name((dv_pipe_t)a), dv_pipe_name((dv_pipe_t)b));
    for (int a = 0; a < DV_SPACE_COUNT; a++)
        for (int b = a + 1; b < DV_SPACE_COUNT; b++)
            ck_assert_str_ne(dv_space_name((dv_space_t)a), dv_space_name((dv_space_t)b));
    for (int a = 0; a < DV_DT_COUNT; a++)
        for (int b = a + 1; b < DV_DT_COUNT; b++)
            ck_assert_str_ne(dv_dtype_name((dv_dtype_t)a), dv_dtype_name((dv_dtype_t)b));
    for (int a = 0; a < DV_COST_COUNT; a++)
        for (int b = a + 1; b < DV_COST_COUNT; b++)
            ck_assert_str_ne(dv_cost_name((dv_cost_t)a), dv_cost_name((dv_cost_t)b));
}
END_TEST

START_TEST(test_isa_pipes_valid)
{
    for (int op = 0; op < DV_OP_COUNT; op++) {
        const dv_op_spec_t *os = dv_op_spec((dv_op_t)op);
        ck_assert_msg((unsigned)os->pipe < DV_PIPE_COUNT, "%s: pipe %d", os->mnemonic, os->pipe);
        ck_assert_str_ne(dv_pipe_ratio_name(os->pipe), "?");
    }
    for (int p = 0; p <= DV_PIPE_ALL; p++)
        ck_assert_int_eq(dv_pipe_lookup(dv_pipe_name((dv_pipe_t)p), strlen(dv_pipe_name((dv_pipe_t)p))), p);
}
END_TEST

/* Every cost class is one the model implements: a V-pipe instruction uses a vector class, the others a
 * non-vector class. */
START_TEST(test_isa_cost_classes_valid)
{
    for (int op = 0; op < DV_OP_COUNT; op++) {
        const dv_op_spec_t *os = dv_op_spec((dv_op_t)op);
        ck_assert_msg((unsigned)os->cost < DV_COST_COUNT, "%s: cost %d", os->mnemonic, os->cost);
        bool vector_class = os->cost >= DV_COST_V_ADD;
        ck_assert_msg(vector_class == (os->pipe == DV_PIPE_V), "%s: cost class %s on pipe %s", os->mnemonic,
                      dv_cost_name(os->cost), dv_pipe_name(os->pipe));
    }
    ck_assert_int_eq(DV_COST_COUNT - DV_COST_V_ADD, DV_VC_COUNT);
}
END_TEST

START_TEST(test_isa_forms_valid)
{
    for (int op = 0; op < DV_OP_COUNT; op++) {
        const dv_op_spec_t *os = dv_op_spec((dv_op_t)op);
        ck_assert_msg((unsigned)os->form < DV_FORM_COUNT, "%s: form %d", os->mnemonic, os->form);
        ck_assert_ptr_nonnull(dv_form_spec(os->form));
        ck_assert_msg((unsigned)os->dst_space < DV_SPACE_COUNT && (unsigned)os->src_space < DV_SPACE_COUNT,
                      "%s: bad space", os->mnemonic);
        ck_assert_msg((os->dtypes & ~((1u << DV_DT_COUNT) - 1)) == 0, "%s: dtype mask", os->mnemonic);
    }
    for (int f = 0; f < DV_FORM_COUNT; f++) {
        const dv_form_spec_t *fs = dv_form_spec((dv_form_t)f);
        ck_assert_int_le(fs->nfields, DV_MAX_FIELDS);
        for (int i = 0; i < fs->nfields; i++)
            for (int j = i + 1; j < fs->nfields; j++)
                ck_assert_msg(strcmp(fs->fields[i].name, fs->fields[j].name) != 0, "form %s: field %s twice", fs->name,
                              fs->fields[i].name);
    }
}
END_TEST

/* An instruction with a dtype field names the dtypes it accepts (vconv uses the conversion table). */
START_TEST(test_isa_dtype_sets_match_forms)
{
    for (int op = 0; op < DV_OP_COUNT; op++) {
        const dv_op_spec_t *os = dv_op_spec((dv_op_t)op);
        const dv_form_spec_t *fs = dv_form_spec(os->form);
        bool has_dtype = false;
        for (int i = 0; i < fs->nfields; i++)
            has_dtype |= fs->fields[i].kind == DV_FK_DTYPE;
        if (os->form == DV_FORM_VCONV)
            ck_assert_uint_eq(os->dtypes, 0);
        else
            ck_assert_msg(has_dtype == (os->dtypes != 0), "%s: dtypes column vs form %s", os->mnemonic, fs->name);
    }
}
END_TEST

START_TEST(test_isa_mnemonic_round_trip)
{
    for (int op = 0; op < DV_OP_COUNT; op++) {
        const char *m = dv_op_spec((dv_op_t)op)->mnemonic;
        ck_assert_int_eq(dv_op_lookup(m, strlen(m)), op);
        for (int i = 0; i < dv_form_spec(dv_op_spec((dv_op_t)op)->form)->nfields; i++)
            ck_assert_int_eq(dv_field_index((dv_op_t)op, dv_form_spec(dv_op_spec((dv_op_t)op)->form)->fields[i].name), i);
    }
    for (int t = 0; t < DV_DT_COUNT; t++)
        ck_assert_int_eq(dv_dtype_lookup(dv_dtype_name((dv_dtype_t)t), strlen(dv_dtype_name((dv_dtype_t)t))), t);
    for (int s = 0; s < DV_SPACE_COUNT; s++)
        ck_assert_int_eq(dv_space_lookup(dv_space_name((dv_space_t)s), strlen(dv_space_name((dv_space_t)s))), s);
}
END_TEST

START_TEST(test_isa_unknown_mnemonic_is_invalid)
{
    ck_assert_int_eq(dv_op_lookup("vaddd", 5), DV_OP_INVALID);
    ck_assert_int_eq(dv_op_lookup("vad", 3), DV_OP_INVALID);
    ck_assert_int_eq(dv_op_lookup("", 0), DV_OP_INVALID);
    ck_assert_int_eq(dv_op_lookup("vadd_extra", 4), DV_OP_vadd); /* the length bounds the name */
    ck_assert_ptr_null(dv_op_spec(DV_OP_INVALID));
    ck_assert_int_eq(dv_field_index(DV_OP_INVALID, "dst"), -1);
    ck_assert_int_eq(dv_field_index(DV_OP_vadd, "nope"), -1);
}
END_TEST

/* The trace format's keywords are never mnemonics (FORMAT.md relies on it). */
START_TEST(test_isa_keywords_are_not_mnemonics)
{
    static const char *const kw[] = {"dvtrace", "kernel", "arg", "block", "end"};
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
        ck_assert_int_eq(dv_op_lookup(kw[i], strlen(kw[i])), DV_OP_INVALID);
}
END_TEST

START_TEST(test_isa_field_defaults_in_range)
{
    for (int f = 0; f < DV_FORM_COUNT; f++) {
        const dv_form_spec_t *fs = dv_form_spec((dv_form_t)f);
        for (int i = 0; i < fs->nfields; i++) {
            const dv_field_spec_t *fd = &fs->fields[i];
            switch (fd->kind) {
            case DV_FK_ADDR:
                ck_assert_msg(fd->space >= DV_FS_SRC && fd->space < DV_SPACE_COUNT && fd->space != DV_FS_NA,
                              "%s.%s: address space", fs->name, fd->name);
                break;
            case DV_FK_INT:
            case DV_FK_BOOL:
            case DV_FK_PIPE:
            case DV_FK_QUANT:
            case DV_FK_CMP:
            case DV_FK_ROUND:
                ck_assert_msg(fd->min <= fd->max, "%s.%s: empty range", fs->name, fd->name);
                ck_assert_msg(fd->required || (fd->def >= fd->min && fd->def <= fd->max), "%s.%s: default %lld",
                              fs->name, fd->name, (long long)fd->def);
                ck_assert_msg(fd->space == DV_FS_NA, "%s.%s: space on a non-address", fs->name, fd->name);
                break;
            default:
                break;
            }
            if (fd->kind == DV_FK_BOOL)
                ck_assert(fd->min == 0 && fd->max == 1);
            if (fd->kind == DV_FK_PIPE)
                ck_assert(fd->min >= 0 && fd->max <= DV_PIPE_ALL);
            if (fd->kind == DV_FK_QUANT || fd->kind == DV_FK_CMP || fd->kind == DV_FK_ROUND) {
                const char *(*name)(int) = fd->kind == DV_FK_QUANT ? dv_quant_name
                                           : fd->kind == DV_FK_CMP ? dv_cmp_name
                                                                   : dv_round_name;
                for (int v = (int)fd->min; v <= (int)fd->max; v++)
                    ck_assert_str_ne(name(v), "?");
            }
        }
    }
}
END_TEST

START_TEST(test_isa_init_fills_defaults)
{
    dv_insn_t in;
    dv_insn_init(&in, DV_OP_vadd);
    ck_assert_int_eq(in.op, DV_OP_vadd);
    ck_assert_int_eq(in.nf, dv_form_spec(DV_FORM_VBIN)->nfields);
    ck_assert_int_eq(in.f[DV_FLD(VBIN, dst_rep)].i, 8);
    ck_assert_int_eq(in.f[DV_FLD(VBIN, src0_blk)].i, 1);
    ck_assert_int_eq(DV_ADDR_SPACE(in.f[DV_FLD(VBIN, dst)].u), DV_SPACE_UB);
    dv_insn_init(&in, DV_OP_copy_gm_to_ubuf);
    ck_assert_int_eq(DV_ADDR_SPACE(in.f[DV_FLD(DMA, src)].u), DV_SPACE_GM);
    ck_assert_int_eq(DV_ADDR_SPACE(in.f[DV_FLD(DMA, dst)].u), DV_SPACE_UB);
}
END_TEST

START_TEST(test_isa_address_encoding)
{
    uint64_t a = DV_GM_ADDR(3, 0x12345);
    ck_assert_int_eq(DV_ADDR_SPACE(a), DV_SPACE_GM);
    ck_assert_uint_eq(DV_ADDR_ARG(a), 3);
    ck_assert_uint_eq(DV_ADDR_OFF(a), 0x12345);
    a = DV_ADDR(DV_SPACE_L0C, 0xFFFFFFFFFFull);
    ck_assert_int_eq(DV_ADDR_SPACE(a), DV_SPACE_L0C);
    ck_assert_uint_eq(DV_ADDR_OFF(a), 0xFFFFFFFFFFull);
}
END_TEST

START_TEST(test_isa_check_rejects_bad_fields)
{
    dv_insn_t in;
    dv_error_t err;
    dv_insn_init(&in, DV_OP_vadd);
    in.f[DV_FLD(VBIN, dtype)].i = DV_DT_F16;
    ck_assert_int_eq(dv_insn_check(&in, &err), DV_OK);
    in.f[DV_FLD(VBIN, repeat)].i = 256;
    ck_assert_int_eq(dv_insn_check(&in, &err), DV_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(err.msg, "'repeat'"));
    in.f[DV_FLD(VBIN, repeat)].i = 1;
    in.f[DV_FLD(VBIN, dtype)].i = DV_DT_U8;
    ck_assert_int_eq(dv_insn_check(&in, &err), DV_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(err.msg, "dtype u8"));
    in.f[DV_FLD(VBIN, dtype)].i = DV_DT_F16;
    in.f[DV_FLD(VBIN, src0)].u = DV_ADDR(DV_SPACE_L1, 0);
    ck_assert_int_eq(dv_insn_check(&in, &err), DV_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(err.msg, "must address ub"));

    dv_insn_init(&in, DV_OP_vconv);
    in.f[DV_FLD(VCONV, src_type)].i = DV_DT_F32;
    in.f[DV_FLD(VCONV, dst_type)].i = DV_DT_U8;
    ck_assert_int_eq(dv_insn_check(&in, &err), DV_ERR_RANGE);
    in.f[DV_FLD(VCONV, dst_type)].i = DV_DT_F16;
    ck_assert_int_eq(dv_insn_check(&in, &err), DV_OK);
}
END_TEST

START_TEST(test_isa_conv_pairs_are_conversions)
{
    int pairs = 0;
    for (int s = 0; s < DV_DT_COUNT; s++)
        for (int d = 0; d < DV_DT_COUNT; d++)
            if (dv_conv_allowed((dv_dtype_t)s, (dv_dtype_t)d)) {
                ck_assert_int_ne(s, d);
                pairs++;
            }
    ck_assert_int_gt(pairs, 0);
}
END_TEST

/* docs/ISA.md is generated: it says so on its first line and lists every instruction and form. */
START_TEST(test_isa_doc_lists_every_instruction)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    dv_doc_isa(f);
    fclose(f);
    ck_assert_msg(strncmp(text, "_Generated by `make docs` from isa/isa.def and isa/fields.def",
                          strlen("_Generated by `make docs` from isa/isa.def and isa/fields.def")) == 0,
                  "first line: %.80s", text);
    char needle[128];
    for (int op = 0; op < DV_OP_COUNT; op++) {
        snprintf(needle, sizeof needle, "\n| `%s` |", dv_op_spec((dv_op_t)op)->mnemonic);
        ck_assert_msg(strstr(text, needle) != NULL, "no row for %s", dv_op_spec((dv_op_t)op)->mnemonic);
    }
    for (int fm = 0; fm < DV_FORM_COUNT; fm++) {
        snprintf(needle, sizeof needle, "\n### %s\n", dv_form_spec((dv_form_t)fm)->name);
        ck_assert_msg(strstr(text, needle) != NULL, "no section for form %s", dv_form_spec((dv_form_t)fm)->name);
    }
    ck_assert_ptr_nonnull(strstr(text, "| `repeat` | INT | — | 0 .. 255 | required |"));
    ck_assert_ptr_nonnull(strstr(text, "| `f32` | `f16` |"));
    ck_assert_ptr_nonnull(strstr(text, "dst = \\|src\\|"));
    free(text);
}
END_TEST

Suite *dv_isa_suite(void)
{
    Suite *s = suite_create("isa");
    TCase *tc = tcase_create("table");
    tcase_add_test(tc, test_isa_mnemonics_unique);
    tcase_add_test(tc, test_isa_table_names_unique);
    tcase_add_test(tc, test_isa_pipes_valid);
    tcase_add_test(tc, test_isa_cost_classes_valid);
    tcase_add_test(tc, test_isa_forms_valid);
    tcase_add_test(tc, test_isa_dtype_sets_match_forms);
    tcase_add_test(tc, test_isa_mnemonic_round_trip);
    tcase_add_test(tc, test_isa_unknown_mnemonic_is_invalid);
    tcase_add_test(tc, test_isa_keywords_are_not_mnemonics);
    tcase_add_test(tc, test_isa_field_defaults_in_range);
    tcase_add_test(tc, test_isa_init_fills_defaults);
    tcase_add_test(tc, test_isa_address_encoding);
    tcase_add_test(tc, test_isa_check_rejects_bad_fields);
    tcase_add_test(tc, test_isa_conv_pairs_are_conversions);
    tcase_add_test(tc, test_isa_doc_lists_every_instruction);
    suite_add_tcase(s, tc);
    return s;
}
