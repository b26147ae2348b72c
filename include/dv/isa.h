/* dv/isa.h - the instruction set, generated from isa/isa.def and isa/fields.def. */
#ifndef DV_ISA_H
#define DV_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dv/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Pipes: DV_PIPE_S .. DV_PIPE_FIX, then DV_PIPE_COUNT; DV_PIPE_ALL (== COUNT) is a barrier target. */
typedef enum dv_pipe {
#define DV_PIPE(id, name, ratio, desc) DV_PIPE_##id,
#include "isa.def"
    DV_PIPE_COUNT,
    DV_PIPE_ALL = DV_PIPE_COUNT
} dv_pipe_t;

/* Hardware limits the ISA tables, the model and the kernel steps size themselves by
 * (/work/shared/reference/davinci-hardware.md, "ref" in the profiles).  The flag counts are the most
 * a profile may declare, so every preset fits: */
enum {
    /* Event ids per (src, dst) pipe pair of set_flag / wait_flag (ids 0 .. DV_FLAG_IDS - 1); a
     * profile uses sync.event_ids of them.  Hardware: 8 on 910B, 310P and 950 (ids 0-7), 4 on the
     * Atlas training parts (ref 4.2). */
    DV_FLAG_IDS = 16,
    /* Cross-core flag ids of set_cross_flag / wait_cross_flag; a profile uses sync.cross_flag_ids
     * of them.  Hardware: 11 on arch 2201 (CrossCoreSetFlag ids 0-10, ref 4.2). */
    DV_CROSS_FLAG_IDS = 16,
    /* Repeats of one vector or load2d instruction: an 8-bit field (ref 3.2, 6). */
    DV_REPEAT_MAX = 255
};

typedef enum dv_space {
#define DV_SPACE(id, name, desc) DV_SPACE_##id,
#include "isa.def"
    DV_SPACE_COUNT
} dv_space_t;

typedef enum dv_dtype {
#define DV_DTYPE(id, name, bytes, is_float, desc) DV_DT_##id,
#include "isa.def"
    DV_DT_COUNT
} dv_dtype_t;

/* Bit masks of dtypes, used by the dtypes column of isa.def. */
enum {
#define DV_DTYPE(id, name, bytes, is_float, desc) DT_##id = 1u << DV_DT_##id,
#include "isa.def"
    DT_NONE = 0
};

typedef enum dv_cost {
#define DV_COST(id, name, desc) DV_COST_##id,
#define DV_VCOST(id, name, desc) DV_COST_V_##id,
#include "isa.def"
    DV_COST_COUNT
} dv_cost_t;

/* Vector cost classes in the same order as their DV_COST_V_* entries. */
typedef enum dv_vclass {
#define DV_VCOST(id, name, desc) DV_VC_##id,
#include "isa.def"
    DV_VC_COUNT
} dv_vclass_t;

typedef enum dv_form {
#define DV_FORM(form, desc) DV_FORM_##form,
#include "fields.def"
    DV_FORM_COUNT
} dv_form_t;

typedef enum dv_op {
#define DV_INSN(mn, pipe, form, cost, dst, src, dtypes, desc) DV_OP_##mn,
#include "isa.def"
    DV_OP_INVALID, /* the explicit catch-all: decoding an unknown mnemonic yields this */
    DV_OP_COUNT = DV_OP_INVALID
} dv_op_t;

typedef enum dv_field_kind {
    DV_FK_ADDR, DV_FK_INT, DV_FK_BOOL, DV_FK_DTYPE, DV_FK_PIPE, DV_FK_F64, DV_FK_U64,
    DV_FK_QUANT, DV_FK_CMP, DV_FK_ROUND
} dv_field_kind_t;

enum { DV_QUANT_NONE, DV_QUANT_F16, DV_QUANT_BF16 };
enum { DV_CMP_EQ, DV_CMP_NE, DV_CMP_LT, DV_CMP_GT, DV_CMP_LE, DV_CMP_GE };
enum { DV_ROUND_R, DV_ROUND_F, DV_ROUND_C, DV_ROUND_Z, DV_ROUND_A };

/* Global field ids; DV_FLD(form, name) is the index of a field inside its form's operand array. */
enum dv_field_gid {
#define DV_FORM(form, desc) DV_G_FORMSTART_##form,
#define DV_FIELD(form, name, kind, space, min, max, def) DV_G_##form##_##name,
#include "fields.def"
    DV_G_COUNT
};
#define DV_FLD(form, name) (DV_G_##form##_##name - DV_G_FORMSTART_##form - 1)

#define DV_MAX_FIELDS 24

/* Placeholder spaces of the fields table. */
enum { DV_FS_NA = -1, DV_FS_DST = -2, DV_FS_SRC = -3 };

typedef struct dv_field_spec {
    const char *name;
    dv_field_kind_t kind;
    int space;         /* DV_SPACE_* or DV_FS_* */
    int64_t min, max;
    bool required;
    int64_t def;
} dv_field_spec_t;

typedef struct dv_form_spec {
    const char *name;
    const char *desc;
    int nfields;
    const dv_field_spec_t *fields;
    int naddr; /* fields of kind DV_FK_ADDR: a form without any touches no memory */
} dv_form_spec_t;

typedef struct dv_op_spec {
    const char *mnemonic;
    dv_pipe_t pipe;
    dv_form_t form;
    dv_cost_t cost;
    dv_space_t dst_space, src_space;
    uint32_t dtypes;
    const char *desc;
} dv_op_spec_t;

/* An operand value.  ADDR values pack space and offset with the helpers below. */
typedef union dv_val {
    int64_t i;
    uint64_t u;
    double d;
} dv_val_t;

/* One decoded instruction. */
typedef struct dv_insn {
    uint16_t op;     /* dv_op_t */
    uint16_t nf;     /* number of fields of its form */
    uint32_t line;   /* source line in the trace (0 = generated) */
    dv_val_t f[DV_MAX_FIELDS];
} dv_insn_t;

/* Address encoding: bits 63..56 space; GM: bits 55..40 argument index, 39..0 byte offset;
 * local buffers: bits 39..0 byte offset. */
#define DV_ADDR(space, off) (((uint64_t)(space) << 56) | ((uint64_t)(off) & 0xFFFFFFFFFFull))
#define DV_GM_ADDR(arg, off) (((uint64_t)DV_SPACE_GM << 56) | ((uint64_t)(arg) << 40) | ((uint64_t)(off) & 0xFFFFFFFFFFull))
#define DV_ADDR_SPACE(a) ((dv_space_t)((uint64_t)(a) >> 56))
#define DV_ADDR_ARG(a) ((unsigned)(((uint64_t)(a) >> 40) & 0xFFFFu))
#define DV_ADDR_OFF(a) ((uint64_t)(a) & 0xFFFFFFFFFFull)

/* Table access.  The tables are isa/isa.c's (read them through these: every hot path asks them). */
extern const dv_op_spec_t dv_isa_ops_[DV_OP_COUNT];
extern dv_form_spec_t dv_isa_forms_[DV_FORM_COUNT];
static inline const dv_op_spec_t *dv_op_spec(dv_op_t op) /* NULL for DV_OP_INVALID or out of range */
{
    return (unsigned)op < DV_OP_COUNT ? &dv_isa_ops_[op] : NULL;
}
static inline const dv_form_spec_t *dv_form_spec(dv_form_t form) /* NULL when out of range */
{
    return (unsigned)form < DV_FORM_COUNT ? &dv_isa_forms_[form] : NULL;
}
dv_op_t dv_op_lookup(const char *mnemonic, size_t len); /* DV_OP_INVALID when unknown */
const char *dv_pipe_name(dv_pipe_t p);                  /* "S".."FIX", "ALL" */
const char *dv_pipe_ratio_name(dv_pipe_t p);            /* "scalar", "vec", "mac", ... */
int dv_pipe_lookup(const char *name, size_t len);       /* -1 when unknown; "ALL" -> DV_PIPE_ALL */
const char *dv_space_name(dv_space_t s);
int dv_space_lookup(const char *name, size_t len);
/* The spaces (bit 1 << dv_space_t) that the address fields of pipe p's ops name (dv_insn_check holds
 * each field to its space, and every footprint range is one field's), or with `written` those of the
 * fields that are not the op's source: an instruction reads and writes only there, and writes only in
 * the second set.  0 for a pipe no op runs on (the sync ops, whose pipe is a field, have no address). */
unsigned dv_pipe_spaces(dv_pipe_t p, bool written);
const char *dv_dtype_name(dv_dtype_t t);
int dv_dtype_lookup(const char *name, size_t len);
unsigned dv_dtype_size(dv_dtype_t t);
bool dv_dtype_is_float(dv_dtype_t t);
const char *dv_cost_name(dv_cost_t c);
const char *dv_quant_name(int q);
const char *dv_cmp_name(int c);
const char *dv_round_name(int r);
bool dv_conv_allowed(dv_dtype_t src, dv_dtype_t dst);
/* Index of a named field in the op's form, -1 when absent. */
int dv_field_index(dv_op_t op, const char *name);

/* Copy an instruction: its header and its nf fields (the fields past nf are not part of it).  A copy
 * of known size per field count: a jump and a few moves, where a memcpy of a variable size is a call
 * (the readers hand every instruction over with it). */
#if DV_MAX_FIELDS != 24
#error "dv_insn_copy has a case per field count up to DV_MAX_FIELDS"
#endif
static inline void dv_insn_copy(dv_insn_t *dst, const dv_insn_t *src)
{
    switch (src->nf) {
#define DV_INSN_COPY_N(n) \
    case n: memcpy(dst, src, offsetof(dv_insn_t, f) + (n) * sizeof(dv_val_t)); break;
        DV_INSN_COPY_N(0) DV_INSN_COPY_N(1) DV_INSN_COPY_N(2) DV_INSN_COPY_N(3) DV_INSN_COPY_N(4)
        DV_INSN_COPY_N(5) DV_INSN_COPY_N(6) DV_INSN_COPY_N(7) DV_INSN_COPY_N(8) DV_INSN_COPY_N(9)
        DV_INSN_COPY_N(10) DV_INSN_COPY_N(11) DV_INSN_COPY_N(12) DV_INSN_COPY_N(13) DV_INSN_COPY_N(14)
        DV_INSN_COPY_N(15) DV_INSN_COPY_N(16) DV_INSN_COPY_N(17) DV_INSN_COPY_N(18) DV_INSN_COPY_N(19)
        DV_INSN_COPY_N(20) DV_INSN_COPY_N(21) DV_INSN_COPY_N(22) DV_INSN_COPY_N(23) DV_INSN_COPY_N(24)
#undef DV_INSN_COPY_N
    default: /* (no decoder makes more fields than DV_MAX_FIELDS) */
        memcpy(dst, src, sizeof *dst);
        break;
    }
}

/* Fill all fields of insn with the form defaults (required fields become 0). */
void dv_insn_init(dv_insn_t *insn, dv_op_t op);

/* Check every field against the tables (range, dtype set, vconv pair, space). */
int dv_insn_check(const dv_insn_t *insn, dv_error_t *err);

/* What dv_insn_check asks of an op's fields, made once from the tables (isa/isa.c), for a decoder
 * that checks each value as it decodes it: field i passes when f[i].u - lo[i] <= span[i] (an
 * address: its space; a dtype: [0, DV_DT_COUNT); F64 and U64: anything; the others [min, max]);
 * then each DTYPE field in dtype_fields must be in the op's dtype set; a `cross` op has rules across
 * fields too.  An instruction of a non-cross op whose fields all pass is one dv_insn_check accepts;
 * for any other, dv_insn_check is the verdict and the message. */
typedef struct dv_insn_rules {
    uint64_t lo[DV_MAX_FIELDS], span[DV_MAX_FIELDS];
    uint32_t dtype_fields; /* the DTYPE fields (bits), when the op has a dtype set */
    uint32_t dtypes;       /* the op's dtype set */
    uint8_t nf;
    bool cross; /* a form with rules across fields */
} dv_insn_rules_t;
extern dv_insn_rules_t dv_isa_rules_[DV_OP_COUNT];
static inline const dv_insn_rules_t *dv_insn_rules(dv_op_t op) /* op < DV_OP_COUNT */
{
    return &dv_isa_rules_[op];
}
/* The dtype rule of r on insn, whose fields passed their ranges (so each DTYPE field is a DV_DT_ index). */
static inline bool dv_insn_rules_dtypes_ok(const dv_insn_rules_t *r, const dv_insn_t *insn)
{
    for (uint32_t m = r->dtype_fields; m; m &= m - 1)
        if (!(r->dtypes >> insn->f[__builtin_ctz(m)].i & 1))
            return false;
    return true;
}

#ifdef __cplusplus
}
#endif
#endif
