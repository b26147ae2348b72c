/* tests/support/semref.h - what the semantics suites (tests/check_semantics_*.c) share: seeded
 * random numbers, plain-C reference numbers written from docs/SEMANTICS.md, test memories,
 * instruction building and the Check case they run in.
 *
 * The references never call the helpers of isa/semantics_*.c: every address is computed in the
 * suites from the layout definitions, and numbers are rounded with the compiler's _Float16
 * conversions, the C library and neighbour searches instead of dv_f32_to_f16. */
#ifndef SEMREF_H
#define SEMREF_H

/* The references compute fp32 results as single IEEE operations, like the semantics: no a*b+c
 * fusing in the functions of any file that includes this header. */
#include "dv/fpexact.h"

#include <check.h>
#include <stdbool.h>
#include <stdint.h>

#include "dv/semantics.h"

#define UB_SIZE (1u << 20)
#define L1_SIZE (1u << 20)
#define L0_SIZE (256u << 10)
#define L0C_SIZE (512u << 10)
#define BT_SIZE (4u << 10)
#define GM_ARGS 4
#define GM_SIZE (1u << 20)

typedef struct sr_mem {
    uint8_t *buf[DV_SPACE_COUNT];
    uint64_t size[DV_SPACE_COUNT];
    uint8_t *gm[GM_ARGS];
    uint64_t gm_size[GM_ARGS];
    dv_mem_t m;
} sr_mem_t;

/* Operand bases in UB used by every vector case (regions do not overlap). */
enum { B_DST = 0x1000, B_S0 = 0x40000, B_S1 = 0x80000, B_SEL = 0xC0000 };

/* Data kinds for filling UB. */
enum { D_NORMAL, D_POSITIVE, D_SMALL, D_CONV };

/* The random numbers every case draws from (xorshift): restart the sequence, next value, [0, n). */
void sr_seed(uint64_t s);
uint64_t sr_rnd(void);
uint32_t sr_rndn(uint32_t n);

/* Reference numbers: fp16 / bf16 bits to float, the correctly rounded double -> fp16, float bits. */
float sr_h2f(uint16_t h);
uint16_t sr_d2h(double d);
float sr_b2f(uint16_t b);
uint32_t sr_fbits(float f);
float sr_bitsf(uint32_t u);

/* x exact in double -> f16 / bf16 / f32 bits with a mode. */
uint32_t sr_ref_to_float(double x, int dt, int mode);
int64_t sr_ref_f2i(double x, int mode, int64_t lo, int64_t hi);

/* The range, size and kind of a dtype. */
int64_t sr_tmin(int dt);
int64_t sr_tmax(int dt);
unsigned sr_sz(int dt);
bool sr_isfl(int dt);

/* Element access (little-endian host). */
double sr_rld(int dt, const uint8_t *p);
void sr_rst_bits(int dt, uint8_t *p, uint64_t bits);

/* A float result (already a float value) stored with nearest-even. */
void sr_rst_f(int dt, uint8_t *p, float f);
void sr_rst_i(int dt, uint8_t *p, int64_t v);
void sr_fill_random(uint8_t *b, uint64_t n);

/* Test memories: every buffer of a core plus GM_ARGS GM arguments, random contents (init) or a
 * copy (clone); free keeps the buffers for the next case. */
void sr_tmem_init(sr_mem_t *t);
/* The buffers of t, random contents when fill (else unspecified). */
void sr_tmem_alloc(sr_mem_t *t, bool fill);

/* d becomes a new copy of s. */
void sr_tmem_clone(sr_mem_t *d, const sr_mem_t *s);
void sr_tmem_free(sr_mem_t *t);

/* First differing byte of two memories, -1 when equal; names the space. */
long sr_tmem_diff(const sr_mem_t *a, const sr_mem_t *b, const char **where);

/* Set an instruction field by name (the test fails when the form has no such field). */
void sr_fset(dv_insn_t *in, const char *name, int64_t v);
void sr_fsetu(dv_insn_t *in, const char *name, uint64_t v);
void sr_fsetd(dv_insn_t *in, const char *name, double v);

/* dv_insn_check and dv_exec must both succeed. */
void sr_exec_ok(const dv_insn_t *in, const dv_vstate_t *vs, sr_mem_t *t);

/* The two memories must be equal byte for byte; the message names the first difference. */
void sr_expect_same(const sr_mem_t *got, const sr_mem_t *want, const char *what);

/* One element of dtype dt as bits. */
uint64_t sr_gen_elem(int dt, int kind, bool nan_ok);

/* A test case of suite s with the semantics suites' timeout. */
TCase *sr_tcase(Suite *s, const char *name);

#endif
