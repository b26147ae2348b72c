/* isa/isa.c - tables generated from isa.def / fields.def and their look-ups. */
#include "dv/isa.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "isa_quick.h"

#define REQ INT64_MIN
#define NA DV_FS_NA
#define DST DV_FS_DST
#define SRC DV_FS_SRC
#define GM DV_SPACE_GM
#define UB DV_SPACE_UB
#define L1 DV_SPACE_L1
#define L0A DV_SPACE_L0A
#define L0B DV_SPACE_L0B
#define L0C DV_SPACE_L0C
#define BT DV_SPACE_BT
#define FB DV_SPACE_FB

static const dv_field_spec_t field_table[] = {
#define DV_FIELD(form, name, kind, space, min, max, def) \
    {#name, DV_FK_##kind, space, (int64_t)(min), (int64_t)(max), (int64_t)(def) == REQ, (int64_t)(def) == REQ ? 0 : (int64_t)(def)},
#include "fields.def"
};

/* Filled before main (a constructor: counting the fields of each form needs a pass over them), so
 * that the look-ups, inline in dv/isa.h, need no check; nothing reads it earlier. */
dv_form_spec_t dv_isa_forms_[DV_FORM_COUNT];
#define form_table dv_isa_forms_

__attribute__((constructor)) static void form_table_init(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    int next = 0;
    int f = 0;
#define DV_FORM(form, text) \
    form_table[f].name = #form; form_table[f].desc = text; form_table[f].fields = &field_table[next]; f++;
#define DV_FIELD(form, name, kind, space, min, max, def) \
    form_table[f - 1].nfields++; form_table[f - 1].naddr += DV_FK_##kind == DV_FK_ADDR; next++;
#include "fields.def"
    (void)f;
}

const dv_op_spec_t dv_isa_ops_[DV_OP_COUNT] = {
#define DV_INSN(mn, pipe, form, cost, dst, src, dtypes, desc) \
    {#mn, DV_PIPE_##pipe, DV_FORM_##form, DV_COST_##cost, DV_SPACE_##dst, DV_SPACE_##src, dtypes, desc},
#include "isa.def"
};

static const char *const pipe_names[] = {
#define DV_PIPE(id, name, ratio, desc) name,
#include "isa.def"
    "ALL"};
static const char *const pipe_ratio_names[] = {
#define DV_PIPE(id, name, ratio, desc) ratio,
#include "isa.def"
};
static const char *const space_names[] = {
#define DV_SPACE(id, name, desc) name,
#include "isa.def"
};
static const struct {
    const char *name;
    unsigned bytes;
    bool is_float;
} dtype_table[] = {
#define DV_DTYPE(id, name, bytes, is_float, desc) {name, bytes, is_float},
#include "isa.def"
};
static const char *const cost_names[] = {
#define DV_COST(id, name, desc) name,
#define DV_VCOST(id, name, desc) "v_" name,
#include "isa.def"
};
static const char *const quant_names[] = {"none", "f16", "bf16"};
static const char *const cmp_names[] = {"eq", "ne", "lt", "gt", "le", "ge"};
static const char *const round_names[] = {"r", "f", "c", "z", "a"};


static int lookup(const char *const *names, int n, const char *s, size_t len)
{
    for (int i = 0; i < n; i++)
        if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0)
            return i;
    return -1;
}

dv_op_t dv_op_lookup(const char *s, size_t len)
{
    for (int i = 0; i < DV_OP_COUNT; i++)
        if (strlen(dv_isa_ops_[i].mnemonic) == len && memcmp(dv_isa_ops_[i].mnemonic, s, len) == 0)
            return (dv_op_t)i;
    return DV_OP_INVALID;
}

const char *dv_pipe_name(dv_pipe_t p) { return (unsigned)p <= DV_PIPE_ALL ? pipe_names[p] : "?"; }
const char *dv_pipe_ratio_name(dv_pipe_t p) { return (unsigned)p < DV_PIPE_COUNT ? pipe_ratio_names[p] : "?"; }
int dv_pipe_lookup(const char *s, size_t len) { return lookup(pipe_names, DV_PIPE_COUNT + 1, s, len); }
const char *dv_space_name(dv_space_t s) { return (unsigned)s < DV_SPACE_COUNT ? space_names[s] : "?"; }
int dv_space_lookup(const char *s, size_t len) { return lookup(space_names, DV_SPACE_COUNT, s, len); }
const char *dv_dtype_name(dv_dtype_t t) { return (unsigned)t < DV_DT_COUNT ? dtype_table[t].name : "?"; }
unsigned dv_dtype_size(dv_dtype_t t) { return (unsigned)t < DV_DT_COUNT ? dtype_table[t].bytes : 0; }
bool dv_dtype_is_float(dv_dtype_t t) { return (unsigned)t < DV_DT_COUNT && dtype_table[t].is_float; }
const char *dv_cost_name(dv_cost_t c) { return (unsigned)c < DV_COST_COUNT ? cost_names[c] : "?"; }
const char *dv_quant_name(int q) { return (unsigned)q < 3 ? quant_names[q] : "?"; }
const char *dv_cmp_name(int c) { return (unsigned)c < 6 ? cmp_names[c] : "?"; }
const char *dv_round_name(int r) { return (unsigned)r < 5 ? round_names[r] : "?"; }

int dv_dtype_lookup(const char *s, size_t len)
{
    for (int i = 0; i < DV_DT_COUNT; i++)
        if (strlen(dtype_table[i].name) == len && memcmp(dtype_table[i].name, s, len) == 0)
            return i;
    return -1;
}

bool dv_conv_allowed(dv_dtype_t src, dv_dtype_t dst) { return dv_quick_conv_allowed(src, dst); }

int dv_field_index(dv_op_t op, const char *name)
{
    const dv_op_spec_t *os = dv_op_spec(op);
    if (!os)
        return -1;
    const dv_form_spec_t *fs = dv_form_spec(os->form);
    for (int i = 0; i < fs->nfields; i++)
        if (strcmp(fs->fields[i].name, name) == 0)
            return i;
    return -1;
}

/* The space an ADDR field must hold for this op. */
static int field_space(const dv_op_spec_t *os, const dv_field_spec_t *fd)
{
    if (fd->space == DV_FS_DST)
        return os->dst_space;
    if (fd->space == DV_FS_SRC)
        return os->src_space;
    return fd->space;
}

/* Per op, what dv_insn_check asks of each field as one unsigned range (dv_insn_rules_t); a rejected
 * field is found again the long way, which writes its message. */
dv_insn_rules_t dv_isa_rules_[DV_OP_COUNT];

__attribute__((constructor)) static void check_table_init(void)
{
    form_table_init(); /* constructors run in no promised order: the forms first (it is idempotent) */
    for (int op = 0; op < DV_OP_COUNT; op++) {
        const dv_op_spec_t *os = &dv_isa_ops_[op];
        const dv_form_spec_t *fs = &form_table[os->form];
        dv_insn_rules_t *c = &dv_isa_rules_[op];
        c->nf = (uint8_t)fs->nfields;
        c->dtypes = os->dtypes;
        c->cross = DV_CROSS_FORM(os->form);
        for (int i = 0; i < fs->nfields; i++) {
            const dv_field_spec_t *fd = &fs->fields[i];
            switch (fd->kind) {
            case DV_FK_ADDR:
                c->lo[i] = (uint64_t)field_space(os, fd) << 56;
                c->span[i] = (1ull << 56) - 1;
                break;
            case DV_FK_DTYPE:
                c->lo[i] = 0;
                c->span[i] = DV_DT_COUNT - 1;
                if (os->dtypes)
                    c->dtype_fields |= 1u << i;
                break;
            case DV_FK_F64:
            case DV_FK_U64:
                c->lo[i] = 0;
                c->span[i] = UINT64_MAX;
                break;
            default:
                c->lo[i] = (uint64_t)fd->min;
                c->span[i] = (uint64_t)fd->max - (uint64_t)fd->min;
            }
        }
    }
}

unsigned dv_pipe_spaces(dv_pipe_t p, bool written)
{
    unsigned m = 0;
    for (int op = 0; op < DV_OP_COUNT; op++) {
        const dv_op_spec_t *os = dv_op_spec((dv_op_t)op);
        if (os->pipe != p)
            continue;
        const dv_form_spec_t *fs = dv_form_spec(os->form);
        for (int i = 0; i < fs->nfields; i++)
            if (fs->fields[i].kind == DV_FK_ADDR && !(written && fs->fields[i].space == DV_FS_SRC))
                m |= 1u << field_space(os, &fs->fields[i]);
    }
    return m;
}

/* An instruction of op with every field at its default (the form's table). */
static void insn_defaults(dv_insn_t *insn, dv_op_t op)
{
    const dv_op_spec_t *os = dv_op_spec(op);
    memset(insn, 0, sizeof *insn);
    insn->op = (uint16_t)op;
    if (!os)
        return;
    const dv_form_spec_t *fs = dv_form_spec(os->form);
    insn->nf = (uint16_t)fs->nfields;
    for (int i = 0; i < fs->nfields; i++) {
        const dv_field_spec_t *fd = &fs->fields[i];
        if (fd->kind == DV_FK_F64)
            insn->f[i].d = (double)fd->def;
        else if (fd->kind == DV_FK_ADDR)
            insn->f[i].u = DV_ADDR(field_space(os, fd), 0);
        else
            insn->f[i].i = fd->def;
    }
}

/* Every op's defaults, made once (an instruction is initialised per emitted or parsed instruction). */
static dv_insn_t g_defaults[DV_OP_COUNT];
static pthread_once_t g_defaults_once = PTHREAD_ONCE_INIT;

static void make_defaults(void)
{
    for (int op = 0; op < DV_OP_COUNT; op++)
        insn_defaults(&g_defaults[op], (dv_op_t)op);
}

void dv_insn_init(dv_insn_t *insn, dv_op_t op)
{
    if ((unsigned)op >= DV_OP_COUNT) {
        insn_defaults(insn, op);
        return;
    }
    pthread_once(&g_defaults_once, make_defaults);
    *insn = g_defaults[op];
}

/* The rules across fields of op os (whose fields passed their ranges): DV_OK, or the broken rule's message. */
static int cross_rules(const dv_insn_t *insn, const dv_op_spec_t *os, dv_error_t *err)
{
    const dv_val_t *f = insn->f;
    switch (dv_cross_fault(insn, os->form)) {
    case DV_CROSS_CONV:
        return dv_error_set(err, DV_ERR_RANGE, NULL, (int)insn->line, 0, "vconv: conversion %s -> %s is not supported",
                            dv_dtype_name((dv_dtype_t)f[DV_FLD(VCONV, src_type)].i),
                            dv_dtype_name((dv_dtype_t)f[DV_FLD(VCONV, dst_type)].i));
    case DV_CROSS_ORDER:
        return dv_error_set(err, DV_ERR_RANGE, NULL, (int)insn->line, 0, "%s: order is for vcmax and vcmin only",
                            os->mnemonic);
    case DV_CROSS_ESIZE:
        return dv_error_set(err, DV_ERR_RANGE, NULL, (int)insn->line, 0, "%s: esize must be 1, 2 or 4, not 3",
                            os->mnemonic);
    case DV_CROSS_PADS:
        return dv_error_set(err, DV_ERR_RANGE, NULL, (int)insn->line, 0,
                            "%s: lpad %lld and rpad %lld elements of %lld bytes must each fit 32 bytes", os->mnemonic,
                            (long long)f[DV_FLD(DMAPADIN, lpad)].i, (long long)f[DV_FLD(DMAPADIN, rpad)].i,
                            (long long)f[DV_FLD(DMAPADIN, esize)].i);
    case DV_CROSS_TRANSPOSE:
        return dv_error_set(err, DV_ERR_RANGE, NULL, (int)insn->line, 0, "%s: transpose is only for 16-bit types",
                            os->mnemonic);
    default:
        return DV_OK;
    }
}

/* The long way: the first field (in form order) that fails, and its message. */
static __attribute__((noinline)) int check_fields(const dv_insn_t *insn, dv_error_t *err)
{
    const dv_op_spec_t *os = dv_op_spec((dv_op_t)insn->op);
    if (!os)
        return dv_error_set(err, DV_ERR_UNKNOWN, NULL, (int)insn->line, 0, "invalid opcode %u", insn->op);
    const dv_form_spec_t *fs = dv_form_spec(os->form);
    for (int i = 0; i < fs->nfields; i++) {
        const dv_field_spec_t *fd = &fs->fields[i];
        const dv_val_t v = insn->f[i];
        switch (fd->kind) {
        case DV_FK_ADDR:
            if ((int)DV_ADDR_SPACE(v.u) != field_space(os, fd))
                return dv_error_set(err, DV_ERR_RANGE, NULL, (int)insn->line, 0, "%s: field '%s' must address %s, not %s",
                                    os->mnemonic, fd->name, dv_space_name((dv_space_t)field_space(os, fd)),
                                    dv_space_name(DV_ADDR_SPACE(v.u)));
            break;
        case DV_FK_DTYPE:
            if (v.i < 0 || v.i >= DV_DT_COUNT)
                return dv_error_set(err, DV_ERR_RANGE, NULL, (int)insn->line, 0, "%s: bad dtype in '%s'", os->mnemonic, fd->name);
            if (os->dtypes && !(os->dtypes & (1u << v.i)))
                return dv_error_set(err, DV_ERR_RANGE, NULL, (int)insn->line, 0, "%s: dtype %s is not supported",
                                    os->mnemonic, dv_dtype_name((dv_dtype_t)v.i));
            break;
        case DV_FK_F64:
        case DV_FK_U64:
            break;
        default:
            if (v.i < fd->min || v.i > fd->max)
                return dv_error_set(err, DV_ERR_RANGE, NULL, (int)insn->line, 0,
                                    "%s: field '%s' = %lld is out of range [%lld, %lld]", os->mnemonic, fd->name,
                                    (long long)v.i, (long long)fd->min, (long long)fd->max);
        }
    }
    return cross_rules(insn, os, err);
}

/* Per op: its form's quick pass with the op's columns, then its rules across fields; any doubt goes
 * the long way (check_fields), which finds the fault again and writes its message.  The switch makes
 * no call but that one, so the common case needs no stack frame. */
int dv_insn_check(const dv_insn_t *insn, dv_error_t *err)
{
    switch (insn->op) {
#define DV_INSN(mn, pipe, form, cost, dst, src, dtypes, desc)                                                        \
    case DV_OP_##mn:                                                                                                  \
        if (DV_INSN_QUICK(insn, form, DV_SPACE_##dst, DV_SPACE_##src, dtypes))                                        \
            return DV_OK;                                                                                             \
        break;
#include "isa.def"
    default: /* an invalid op */
        break;
    }
    return check_fields(insn, err);
}
