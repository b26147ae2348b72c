/* tests/support/kapi_any.c - dv/kapi_insn.h's dvk_<mnemonic> (each through dvk_emit) for any op, its
 * operands from an array: the general side that tests/check_kapi_emit.c holds the inline path
 * (kernel/kapi_emit.h) against, through the same generated dispatcher. */
#include "dv/kapi.h"

void dvt_kapi_emit_general(dv_k_t *k, dv_op_t op, const dv_val_t *f);

#define DVK_EMIT_ANY_ONLY /* (the functions are dv/kapi_insn.h's) */
#define DVK_EMIT_ANY emit_any
#include "kernel/kapi_emit_insn.h"

void dvt_kapi_emit_general(dv_k_t *k, dv_op_t op, const dv_val_t *f) { emit_any(k, op, f); }
