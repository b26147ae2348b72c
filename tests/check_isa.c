/* tests/check_isa.c - the instruction table (isa/isa.def, isa/fields.def) tested against itself,
 * and the generated reference page. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dv/config.h"
#include "dv/isa.h"
#include "dv/trace.h"

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

/* The spaces each pipe's ops address, from the table's rows (the hazard checker's pipes that cannot race,
 * model/HazardChecker.cpp): a cube core's MTE3 and its M and MTE1 share no space one of them writes. */
START_TEST(test_isa_pipe_spaces)
{
#define SP(s) (1u << DV_SPACE_##s)
    ck_assert_uint_eq(dv_pipe_spaces(DV_PIPE_M, false), SP(L0A) | SP(L0B) | SP(L0C) | SP(BT));
    ck_assert_uint_eq(dv_pipe_spaces(DV_PIPE_MTE1, false), SP(L1) | SP(L0A) | SP(L0B) | SP(BT));
    ck_assert_uint_eq(dv_pipe_spaces(DV_PIPE_MTE1, true), SP(L0A) | SP(L0B) | SP(BT)); /* L1 only as a source */
    ck_assert_uint_eq(dv_pipe_spaces(DV_PIPE_MTE3, false), SP(GM) | SP(L1) | SP(UB));
    ck_assert_uint_eq(dv_pipe_spaces(DV_PIPE_MTE3, true), SP(GM));
    ck_assert_uint_eq(dv_pipe_spaces(DV_PIPE_FIX, true), SP(GM) | SP(L1));
    ck_assert_uint_eq(dv_pipe_spaces(DV_PIPE_S, false), SP(GM) | SP(UB));
#undef SP
    for (int p = 0; p < DV_PIPE_COUNT; p++) /* what a pipe writes it touches */
        ck_assert_uint_eq(dv_pipe_spaces((dv_pipe_t)p, true) & ~dv_pipe_spaces((dv_pipe_t)p, false), 0);
    ck_assert_uint_eq(dv_pipe_spaces(DV_PIPE_ALL, false), 0);
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

/* Every field of every op at the edges of what the field table allows, one field at a time from
 * the defaults: dv_insn_check accepts exactly the values the table does (the range of an integer
 * field, the space of an address, a dtype of the op's set) and names the field it rejects. */
START_TEST(test_isa_check_every_field_edge)
{
    for (int op = 0; op < DV_OP_COUNT; op++) {
        const dv_op_spec_t *os = dv_op_spec((dv_op_t)op);
        const dv_form_spec_t *fs = dv_form_spec(os->form);
        dv_insn_t base;
        dv_error_t err;
        dv_insn_init(&base, (dv_op_t)op);
        for (int i = 0; i < fs->nfields; i++) /* a dtype the op takes, for ops whose default is not one */
            if (fs->fields[i].kind == DV_FK_DTYPE && os->dtypes && !(os->dtypes >> base.f[i].i & 1))
                base.f[i].i = __builtin_ctz(os->dtypes);
        if (dv_insn_check(&base, &err) != DV_OK)
            continue; /* a form whose defaults break a rule across fields (vconv pairs): covered elsewhere */
        for (int i = 0; i < fs->nfields; i++) {
            const dv_field_spec_t *fd = &fs->fields[i];
            struct {
                dv_val_t v;
                bool ok;
            } probe[8];
            int n = 0;
            switch (fd->kind) {
            case DV_FK_ADDR:
                for (int sp = 0; sp < DV_SPACE_COUNT; sp++)
                    probe[n].v.u = DV_ADDR(sp, 0x40), probe[n].ok = sp == (int)DV_ADDR_SPACE(base.f[i].u), n++;
                break;
            case DV_FK_DTYPE:
                for (int dt = -1; dt <= DV_DT_COUNT && n < 8; dt += dt < 1 ? 1 : DV_DT_COUNT - 1)
                    probe[n].v.i = dt, probe[n].ok = dt >= 0 && dt < DV_DT_COUNT && (!os->dtypes || (os->dtypes >> dt & 1)), n++;
                break;
            case DV_FK_F64:
            case DV_FK_U64:
                probe[n].v.u = UINT64_MAX, probe[n].ok = true, n++;
                break;
            default:
                probe[n].v.i = fd->min, probe[n].ok = true, n++;
                probe[n].v.i = fd->max, probe[n].ok = true, n++;
                if (fd->min > INT64_MIN)
                    probe[n].v.i = fd->min - 1, probe[n].ok = false, n++;
                if (fd->max < INT64_MAX)
                    probe[n].v.i = fd->max + 1, probe[n].ok = false, n++;
            }
            for (int k = 0; k < n; k++) {
                dv_insn_t in = base;
                in.f[i] = probe[k].v;
                if (os->form == DV_FORM_VCONV || os->form == DV_FORM_DMAPADIN || os->form == DV_FORM_LOAD2D ||
                    os->form == DV_FORM_VREDUCE)
                    if (probe[k].ok && dv_insn_check(&in, &err) != DV_OK)
                        continue; /* a rule across fields rejects it: not this field's range */
                int rc = dv_insn_check(&in, &err);
                ck_assert_msg((rc == DV_OK) == probe[k].ok, "%s field %s value %lld: got %d, want %s", os->mnemonic,
                              fd->name, (long long)probe[k].v.i, rc, probe[k].ok ? "ok" : "rejected");
                if (!probe[k].ok && fd->kind != DV_FK_DTYPE)
                    ck_assert_msg(strstr(err.msg, fd->name), "%s: '%s' does not name field %s", os->mnemonic, err.msg,
                                  fd->name);
            }
        }
    }
}
END_TEST

/* vbrcb and vtranspose: V pipe, UB operands, the copy class, and operands in this order (the
 * generated kernel API passes them in fields.def order). */
START_TEST(test_isa_vbrcb_vtranspose_rows)
{
    static const struct {
        dv_op_t op;
        dv_form_t form;
        uint32_t dtypes;
        int nfields;
        const char *fields[6];
    } rows[] = {
        {DV_OP_vbrcb, DV_FORM_VBRCB, DT_F16 | DT_BF16 | DT_F32 | DT_S16 | DT_U16 | DT_S32 | DT_U32, 6,
         {"dst", "src", "dtype", "repeat", "dst_blk", "dst_rep"}},
        {DV_OP_vtranspose, DV_FORM_VTRANSPOSE, DT_F16 | DT_BF16 | DT_S16 | DT_U16, 3, {"dst", "src", "dtype"}},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        const dv_op_spec_t *os = dv_op_spec(rows[k].op);
        ck_assert_int_eq(os->pipe, DV_PIPE_V);
        ck_assert_int_eq(os->form, rows[k].form);
        ck_assert_int_eq(os->cost, DV_COST_V_COPY);
        ck_assert_int_eq(os->dst_space, DV_SPACE_UB);
        ck_assert_int_eq(os->src_space, DV_SPACE_UB);
        ck_assert_uint_eq(os->dtypes, rows[k].dtypes);
        const dv_form_spec_t *fs = dv_form_spec(os->form);
        ck_assert_int_eq(fs->nfields, rows[k].nfields);
        for (int i = 0; i < fs->nfields; i++)
            ck_assert_str_eq(fs->fields[i].name, rows[k].fields[i]);
        ck_assert(fs->fields[0].kind == DV_FK_ADDR && fs->fields[0].space == DV_FS_DST && fs->fields[0].required);
        ck_assert(fs->fields[1].kind == DV_FK_ADDR && fs->fields[1].space == DV_FS_SRC && fs->fields[1].required);
        ck_assert(fs->fields[2].kind == DV_FK_DTYPE && fs->fields[2].required);
    }
    const dv_field_spec_t *f = dv_form_spec(DV_FORM_VBRCB)->fields;
    ck_assert(f[3].kind == DV_FK_INT && f[3].required && f[3].min == 0 && f[3].max == 255);
    ck_assert(f[4].kind == DV_FK_INT && !f[4].required && f[4].def == 1 && f[4].max == 255);
    ck_assert(f[5].kind == DV_FK_INT && !f[5].required && f[5].def == 8 && f[5].max == 255);
}
END_TEST

/* The trace reader and writer need nothing per form: vbrcb and vtranspose lines read back to their
 * canonical text (defaults filled in), and a bad value is reported on its column. */
START_TEST(test_isa_vbrcb_vtranspose_trace_text)
{
    static const char *const lines[][2] = {
        {"vbrcb dst=ub:0x1000 src=ub:0x200 dtype=f32 repeat=37 dst_blk=2 dst_rep=16", NULL},
        {"vbrcb src=ub:0x100 dtype=u16 dst=ub:0x0 repeat=2", "vbrcb dst=ub:0x0 src=ub:0x100 dtype=u16 repeat=2 dst_blk=1 dst_rep=8"},
        {"vtranspose dst=ub:0x400 src=ub:0x0 dtype=bf16", NULL},
    };
    const dv_kernel_info_t info = {.name = "k", .blocks = 1, .subs = 1};
    dv_error_t err;
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        dv_insn_t in;
        char buf[256];
        ck_assert_msg(dv_trace_parse_insn(lines[i][0], strlen(lines[i][0]), &info, "t", 3, &in, &err) == DV_OK, "%s: %s",
                      lines[i][0], err.msg);
        ck_assert_int_gt(dv_trace_format_insn(&in, &info, buf, sizeof buf), 0);
        ck_assert_str_eq(buf, lines[i][1] ? lines[i][1] : lines[i][0]);
    }
    static const struct {
        const char *line, *at, *msg;
    } bad[] = {
        {"vtranspose dst=ub:0x400 src=ub:0x0 dtype=f32", "f32", "vtranspose: dtype f32 is not supported"},
        {"vbrcb dst=ub:0x0 src=ub:0x100 dtype=s8 repeat=1", "s8", "vbrcb: dtype s8 is not supported"},
        {"vbrcb dst=ub:0x0 src=ub:0x100 dtype=f16 repeat=256", "256", "vbrcb: field 'repeat' = 256 is out of range [0, 255]"},
        {"vbrcb dst=ub:0x0 src=l1:0x100 dtype=f16 repeat=1", "l1:", "vbrcb: field 'src' must address ub, not l1"},
        {"vbrcb dst=ub:0x0 src=ub:0x100 dtype=f16", "vbrcb", "vbrcb: missing required field 'repeat'"},
        {"vtranspose dst=ub:0x0 src=ub:0x200 dtype=f16 repeat=1", "repeat",
         "unknown field 'repeat' for vtranspose (fields: dst, src, dtype)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        dv_insn_t in;
        ck_assert_int_lt(dv_trace_parse_insn(bad[i].line, strlen(bad[i].line), &info, "t.trace", 9, &in, &err), 0);
        ck_assert_str_eq(err.file, "t.trace");
        ck_assert_int_eq(err.line, 9);
        ck_assert_int_eq(err.col, (int)(strstr(bad[i].line, bad[i].at) - bad[i].line) + 1);
        ck_assert_str_eq(err.msg, bad[i].msg);
    }
}
END_TEST

/* DataCopyPad: two rows, GM on one side and UB on the other, lengths in bytes: the DMAPAD form out of
 * UB, and into UB the DMAPADIN form, DMAPAD's fields followed by the padding (lpad, rpad, esize). */
START_TEST(test_isa_dma_pad_rows)
{
    static const struct {
        dv_op_t op;
        dv_pipe_t pipe;
        dv_cost_t cost;
        dv_space_t dst, src;
    } rows[] = {
        {DV_OP_copy_gm_to_ubuf_align, DV_PIPE_MTE2, DV_COST_GM_READ, DV_SPACE_UB, DV_SPACE_GM},
        {DV_OP_copy_ubuf_to_gm_align, DV_PIPE_MTE3, DV_COST_GM_WRITE, DV_SPACE_GM, DV_SPACE_UB},
    };
    static const struct {
        const char *name;
        dv_field_kind_t kind;
        int space;
        int64_t min, max;
        bool required;
        int64_t def;
    } fields[] = {
        {"dst", DV_FK_ADDR, DV_FS_DST, 0, 0, true, 0},
        {"src", DV_FK_ADDR, DV_FS_SRC, 0, 0, true, 0},
        {"nburst", DV_FK_INT, DV_FS_NA, 1, 4095, false, 1},
        {"len", DV_FK_INT, DV_FS_NA, 1, 2097151, true, 0},
        {"src_gap", DV_FK_INT, DV_FS_NA, 0, 16777215, false, 0},
        {"dst_gap", DV_FK_INT, DV_FS_NA, 0, 16777215, false, 0},
        {"lpad", DV_FK_INT, DV_FS_NA, 0, 32, false, 0},
        {"rpad", DV_FK_INT, DV_FS_NA, 0, 32, false, 0},
        {"esize", DV_FK_INT, DV_FS_NA, 1, 4, false, 1},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        const dv_op_spec_t *os = dv_op_spec(rows[k].op);
        ck_assert_int_eq(os->pipe, rows[k].pipe);
        ck_assert_int_eq(os->form, k == 0 ? DV_FORM_DMAPADIN : DV_FORM_DMAPAD);
        ck_assert_int_eq(os->cost, rows[k].cost);
        ck_assert_int_eq(os->dst_space, rows[k].dst);
        ck_assert_int_eq(os->src_space, rows[k].src);
        ck_assert_uint_eq(os->dtypes, 0);
        ck_assert_int_eq(dv_op_lookup(os->mnemonic, strlen(os->mnemonic)), rows[k].op);
    }
    const dv_form_t forms[] = {DV_FORM_DMAPAD, DV_FORM_DMAPADIN};
    for (size_t k = 0; k < 2; k++) {
        const dv_form_t form = forms[k];
        const dv_form_spec_t *fs = dv_form_spec(form);
        ck_assert_str_eq(fs->name, form == DV_FORM_DMAPAD ? "DMAPAD" : "DMAPADIN");
        ck_assert_int_eq(fs->nfields, (int)(sizeof fields / sizeof fields[0]) - (form == DV_FORM_DMAPAD ? 3 : 0));
        for (int i = 0; i < fs->nfields; i++) {
            const dv_field_spec_t *f = &fs->fields[i];
            ck_assert_str_eq(f->name, fields[i].name);
            ck_assert_int_eq(f->kind, fields[i].kind);
            ck_assert_int_eq(f->space, fields[i].space);
            ck_assert_int_eq(f->required, fields[i].required);
            if (f->kind == DV_FK_INT) {
                ck_assert_int_eq(f->min, fields[i].min);
                ck_assert_int_eq(f->max, fields[i].max);
                ck_assert_int_eq(f->def, fields[i].def);
            }
        }
    }
    /* the plain DMA form keeps its 32 B units */
    ck_assert_int_eq(dv_form_spec(DV_FORM_DMA)->fields[DV_FLD(DMA, len)].max, 65535);
}
END_TEST

/* copy_*_align lines read back to their canonical text; byte lengths and byte GM offsets are
 * accepted, a length past the table range is reported on its column. */
START_TEST(test_isa_dma_pad_trace_text)
{
    const dv_kernel_info_t info = {.name = "k", .blocks = 1, .subs = 1, .nargs = 1,
                                   .args = (dv_arg_t[]){{.name = "x", .bytes = 4096, .dtype = DV_DT_F16}}};
    static const char *const lines[][2] = {
        {"copy_gm_to_ubuf_align dst=ub:0x40 src=x+0x3 nburst=3 len=100 src_gap=5 dst_gap=2",
         "copy_gm_to_ubuf_align dst=ub:0x40 src=x+0x3 nburst=3 len=100 src_gap=5 dst_gap=2 lpad=0 rpad=0 esize=1"},
        {"copy_gm_to_ubuf_align dst=ub:0x40 src=x nburst=2 len=6 rpad=5 esize=2",
         "copy_gm_to_ubuf_align dst=ub:0x40 src=x+0x0 nburst=2 len=6 src_gap=0 dst_gap=0 lpad=0 rpad=5 esize=2"},
        {"copy_ubuf_to_gm_align src=ub:0x0 dst=x len=1",
         "copy_ubuf_to_gm_align dst=x+0x0 src=ub:0x0 nburst=1 len=1 src_gap=0 dst_gap=0"},
    };
    dv_error_t err;
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        dv_insn_t in;
        char buf[256];
        ck_assert_msg(dv_trace_parse_insn(lines[i][0], strlen(lines[i][0]), &info, "t", 3, &in, &err) == DV_OK, "%s: %s",
                      lines[i][0], err.msg);
        ck_assert_int_gt(dv_trace_format_insn(&in, &info, buf, sizeof buf), 0);
        ck_assert_str_eq(buf, lines[i][1] ? lines[i][1] : lines[i][0]);
    }
    static const struct {
        const char *line, *at, *msg;
    } bad[] = {
        {"copy_gm_to_ubuf_align dst=ub:0x0 src=x len=2097152", "2097152",
         "copy_gm_to_ubuf_align: field 'len' = 2097152 is out of range [1, 2097151]"},
        {"copy_ubuf_to_gm_align dst=x src=ub:0x0", "copy", "copy_ubuf_to_gm_align: missing required field 'len'"},
        {"copy_gm_to_ubuf_align dst=l1:0x0 src=x len=4", "l1:", "copy_gm_to_ubuf_align: field 'dst' must address ub, not l1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        dv_insn_t in;
        ck_assert_int_lt(dv_trace_parse_insn(bad[i].line, strlen(bad[i].line), &info, "t.trace", 9, &in, &err), 0);
        ck_assert_str_eq(err.file, "t.trace");
        ck_assert_int_eq(err.line, 9);
        ck_assert_int_eq(err.col, (int)(strstr(bad[i].line, bad[i].at) - bad[i].line) + 1);
        ck_assert_str_eq(err.msg, bad[i].msg);
    }
}
END_TEST

START_TEST(test_isa_conv_pairs_are_conversions)
{
    int pairs = 0;
    for (int s = 0; s < DV_DT_COUNT; s++)
        for (int d = 0; d < DV_DT_COUNT; d++)
            if (dv_conv_allowed((dv_dtype_t)s, (dv_dtype_t)d)) {
                ck_assert(s != d || s == DV_DT_F32); /* f32 -> f32 rounds to an integral value */
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

/* The hardware limits of dv/isa.h bound the table and the profile schema: flag ids run 0 .. DV_FLAG_IDS - 1
 * (cross-core: DV_CROSS_FLAG_IDS - 1), a profile may declare at most that many, and every repeat field
 * stops at DV_REPEAT_MAX. */
START_TEST(test_isa_hardware_limits)
{
    const dv_form_spec_t *flag = dv_form_spec(DV_FORM_FLAG), *xset = dv_form_spec(DV_FORM_XSET),
                         *xwait = dv_form_spec(DV_FORM_XWAIT);
    ck_assert_int_eq(flag->fields[DV_FLD(FLAG, id)].min, 0);
    ck_assert_int_eq(flag->fields[DV_FLD(FLAG, id)].max, DV_FLAG_IDS - 1);
    ck_assert_int_eq(xset->fields[DV_FLD(XSET, id)].max, DV_CROSS_FLAG_IDS - 1);
    ck_assert_int_eq(xwait->fields[DV_FLD(XWAIT, id)].max, DV_CROSS_FLAG_IDS - 1);
    const dv_param_spec_t *ev = dv_param_find("sync.event_ids"), *xf = dv_param_find("sync.cross_flag_ids");
    ck_assert_ptr_nonnull(ev);
    ck_assert_ptr_nonnull(xf);
    ck_assert_uint_eq(ev->max, DV_FLAG_IDS);
    ck_assert_uint_eq(xf->max, DV_CROSS_FLAG_IDS);
    int repeats = 0;
    for (int f = 0; f < DV_FORM_COUNT; f++) {
        const dv_form_spec_t *fs = dv_form_spec((dv_form_t)f);
        for (int i = 0; i < fs->nfields; i++)
            if (strcmp(fs->fields[i].name, "repeat") == 0) {
                ck_assert_msg(fs->fields[i].max == DV_REPEAT_MAX, "%s repeat max %lld", fs->name,
                              (long long)fs->fields[i].max);
                repeats++;
            }
    }
    ck_assert_int_eq(repeats, 17); /* LOAD2D, LOAD2DT and the fifteen vector forms with a repeat count */
}
END_TEST

Suite *dv_isa_suite(void)
{
    Suite *s = suite_create("isa");
    TCase *tc = tcase_create("table");
    tcase_add_test(tc, test_isa_mnemonics_unique);
    tcase_add_test(tc, test_isa_table_names_unique);
    tcase_add_test(tc, test_isa_pipes_valid);
    tcase_add_test(tc, test_isa_pipe_spaces);
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
    tcase_add_test(tc, test_isa_check_every_field_edge);
    tcase_add_test(tc, test_isa_vbrcb_vtranspose_rows);
    tcase_add_test(tc, test_isa_vbrcb_vtranspose_trace_text);
    tcase_add_test(tc, test_isa_dma_pad_rows);
    tcase_add_test(tc, test_isa_dma_pad_trace_text);
    tcase_add_test(tc, test_isa_conv_pairs_are_conversions);
    tcase_add_test(tc, test_isa_doc_lists_every_instruction);
    tcase_add_test(tc, test_isa_hardware_limits);
    suite_add_tcase(s, tc);
    return s;
}
