/* isa/isa_quick.h - dv_insn_check's quick pass, inline, for the two places that check an instruction
 * whose op they know as a constant: dv_insn_check itself (isa/isa.c, a case per op) and dvk_emit
 * (kernel/kapi.c, which already switches on the op to copy the operands, so the check is part of
 * that case: one switch per emitted instruction, not two, and no call).
 *
 * DV_INSN_QUICK(insn, form, dst, src, dtypes), with an isa.def row's columns, is true when insn (of
 * that op) passes every rule of dv_insn_check: dv_insn_check then returns DV_OK.  False means only
 * that it may not: dv_insn_check is then the verdict, and writes the message (the long way).
 * Internal to the simulator (not installed). */
#ifndef DV_ISA_QUICK_H
#define DV_ISA_QUICK_H

#include <stdbool.h>
#include <stdint.h>

#include "dv/isa.h"

/* Each element type's size in bytes, and the conversions vconv accepts (isa.def), for the rules
 * across fields below. */
static const uint8_t dv_quick_dtype_bytes_[] = {
#define DV_DTYPE(id, name, bytes, is_float, desc) bytes,
#include "isa.def"
};
static const struct {
    dv_dtype_t src, dst;
} dv_quick_conv_[] = {
#define DV_CONV(s, d) {DV_DT_##s, DV_DT_##d},
#include "isa.def"
};

static inline __attribute__((always_inline)) bool dv_quick_conv_allowed(dv_dtype_t src, dv_dtype_t dst)
{
    for (size_t i = 0; i < sizeof dv_quick_conv_ / sizeof dv_quick_conv_[0]; i++)
        if (dv_quick_conv_[i].src == src && dv_quick_conv_[i].dst == dst)
            return true;
    return false;
}

/* The forms with rules across their fields (dv_cross_fault). */
#define DV_CROSS_FORM(form) ((form) == DV_FORM_VCONV || (form) == DV_FORM_VREDUCE || (form) == DV_FORM_DMAPADIN || \
                             (form) == DV_FORM_LOAD2D)

/* dv_insn_check's rules across the fields of a few forms (DV_CROSS_FORM): the rule insn, of form
 * `form`, breaks (a DV_CROSS_* below), or DV_CROSS_OK.  Inline, so a call with a constant form is
 * only that form's test, with no call and no message: isa.c's cross_rules writes those. */
enum { DV_CROSS_OK, DV_CROSS_CONV, DV_CROSS_ORDER, DV_CROSS_ESIZE, DV_CROSS_PADS, DV_CROSS_TRANSPOSE };
static inline __attribute__((always_inline)) int dv_cross_fault(const dv_insn_t *insn, dv_form_t form)
{
    switch (form) {
    case DV_FORM_VCONV:
        return dv_quick_conv_allowed((dv_dtype_t)insn->f[DV_FLD(VCONV, src_type)].i,
                                     (dv_dtype_t)insn->f[DV_FLD(VCONV, dst_type)].i)
                   ? DV_CROSS_OK
                   : DV_CROSS_CONV;
    case DV_FORM_VREDUCE:
        return insn->f[DV_FLD(VREDUCE, order)].i && insn->op != DV_OP_vcmax && insn->op != DV_OP_vcmin ? DV_CROSS_ORDER
                                                                                                     : DV_CROSS_OK;
    case DV_FORM_DMAPADIN: {
        const int64_t es = insn->f[DV_FLD(DMAPADIN, esize)].i;
        if (es == 3)
            return DV_CROSS_ESIZE;
        return insn->f[DV_FLD(DMAPADIN, lpad)].i * es > 32 || insn->f[DV_FLD(DMAPADIN, rpad)].i * es > 32
                   ? DV_CROSS_PADS
                   : DV_CROSS_OK;
    }
    case DV_FORM_LOAD2D:
        /* (the dtype passed its range: a table index) */
        return insn->f[DV_FLD(LOAD2D, transpose)].i && dv_quick_dtype_bytes_[insn->f[DV_FLD(LOAD2D, dtype)].i] != 2
                   ? DV_CROSS_TRANSPOSE
                   : DV_CROSS_OK;
    default:
        return DV_CROSS_OK;
    }
}

/* The quick pass of each form: dv_quick_<FORM>(f, dst, src, dtypes) is true when every field of the
 * form passes what the long way (isa.c's check_fields) asks of it (its rules across fields are then
 * still to check), false when one may not.  One function per form, its fields in order,
 * straight-line, generated from fields.def; called per op with the op's columns of isa.def as
 * constants, so a range is one subtraction and one comparison with constants (the unsigned range of
 * dv_insn_rules_t), an address's space and a dtype's set too. */
#define DV_QSPACE_NA DV_FS_NA
#define DV_QSPACE_DST DV_FS_DST
#define DV_QSPACE_SRC DV_FS_SRC
#define DV_QSPACE_GM DV_SPACE_GM
#define DV_QSPACE_UB DV_SPACE_UB
#define DV_QSPACE_L1 DV_SPACE_L1
#define DV_QSPACE_L0A DV_SPACE_L0A
#define DV_QSPACE_L0B DV_SPACE_L0B
#define DV_QSPACE_L0C DV_SPACE_L0C
#define DV_QSPACE_BT DV_SPACE_BT
#define DV_QSPACE_FB DV_SPACE_FB
#define DV_QIN_RANGE(n, min, max)                                                                                     \
    if (f[n].u - (uint64_t)(int64_t)(min) > (uint64_t)(int64_t)(max) - (uint64_t)(int64_t)(min))                    \
        return false;
#define DV_QUICK_ADDR(n, space, min, max)                                                                             \
    if (f[n].u - ((uint64_t)((int)DV_QSPACE_##space == DV_FS_DST   ? dst_                                            \
                             : (int)DV_QSPACE_##space == DV_FS_SRC ? src_                                            \
                                                                   : (int)DV_QSPACE_##space)                         \
                  << 56) >                                                                                           \
        (1ull << 56) - 1)                                                                                             \
        return false;
#define DV_QUICK_DTYPE(n, space, min, max)                                                                            \
    if (f[n].u >= DV_DT_COUNT || (dtypes_ && !(dtypes_ >> f[n].u & 1)))                                              \
        return false;
#define DV_QUICK_F64(n, space, min, max)
#define DV_QUICK_U64(n, space, min, max)
#define DV_QUICK_INT(n, space, min, max) DV_QIN_RANGE(n, min, max)
#define DV_QUICK_BOOL DV_QUICK_INT
#define DV_QUICK_PIPE DV_QUICK_INT
#define DV_QUICK_QUANT DV_QUICK_INT
#define DV_QUICK_CMP DV_QUICK_INT
#define DV_QUICK_ROUND DV_QUICK_INT
#define DV_QUICK_HEAD(name)                                                                                           \
    static inline __attribute__((always_inline)) bool name(const dv_val_t *f, int dst_, int src_, uint32_t dtypes_) \
    {                                                                                                                 \
        (void)f, (void)dst_, (void)src_, (void)dtypes_;
DV_QUICK_HEAD(dv_quick_none_)
#define DV_FORM(form, desc) return true; } DV_QUICK_HEAD(dv_quick_##form)
#define DV_FIELD(form, name, kind, space, min, max, def) DV_QUICK_##kind(DV_FLD(form, name), space, min, max)
#include "fields.def"
    return true;
}
#undef DV_QUICK_HEAD
#undef DV_QIN_RANGE
#undef DV_QUICK_ADDR
#undef DV_QUICK_DTYPE
#undef DV_QUICK_F64
#undef DV_QUICK_U64
#undef DV_QUICK_INT
#undef DV_QUICK_BOOL
#undef DV_QUICK_PIPE
#undef DV_QUICK_QUANT
#undef DV_QUICK_CMP
#undef DV_QUICK_ROUND

/* An op's whole quick verdict: its form's fields, then its rules across fields (an isa.def row's
 * form and dtypes columns, its dst and src as DV_SPACE_ values). */
#define DV_INSN_QUICK(insn, form, dst_space, src_space, dtypes)                                                       \
    (dv_quick_##form((insn)->f, dst_space, src_space, dtypes) &&                                                      \
     (!DV_CROSS_FORM(DV_FORM_##form) || dv_cross_fault(insn, DV_FORM_##form) == DV_CROSS_OK))

#endif
