/* tests/check_semantics_footprint.c - hand-computed footprints, vector geometries and
 * transfer shapes, and the safety rules: out-of-bounds refusals, bad input, footprints covering what
 * dv_exec touches
 * (docs/SEMANTICS.md; shared references in tests/support/semref.c). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/semref.h"

/* ------------------------------------------------------------------ footprints, geometry, shapes */

static dv_insn_t vadd_f32(uint64_t dst, int repeat, int dst_rep)
{
    dv_insn_t in;
    dv_insn_init(&in, DV_OP_vadd);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, dst));
    sr_fsetu(&in, "src0", DV_ADDR(DV_SPACE_UB, 0x10000));
    sr_fsetu(&in, "src1", DV_ADDR(DV_SPACE_UB, 0x20000));
    sr_fset(&in, "dtype", DV_DT_F32);
    sr_fset(&in, "repeat", repeat);
    sr_fset(&in, "dst_rep", dst_rep);
    return in;
}

static void expect_range(const dv_range_t *r, int space, int arg, uint64_t lo, uint64_t hi, int write)
{
    ck_assert_int_eq(r->space, space);
    ck_assert_int_eq(r->arg, arg);
    ck_assert_uint_eq(r->lo, lo);
    ck_assert_uint_eq(r->hi, hi);
    ck_assert_int_eq(r->write, write);
}

START_TEST(test_semantics_footprint_vector)
{
    dv_range_t r[DV_MAX_RANGES];
    dv_vstate_t vs;
    dv_vstate_reset(&vs);
    dv_insn_t in = vadd_f32(0x100, 2, 8);
    ck_assert_int_eq(dv_footprint(&in, &vs, r), 3);
    expect_range(&r[0], DV_SPACE_UB, 0, 0x100, 0x100 + 512, 1);
    expect_range(&r[1], DV_SPACE_UB, 0, 0x10000, 0x10000 + 512, 0);
    expect_range(&r[2], DV_SPACE_UB, 0, 0x20000, 0x20000 + 512, 0);
    in = vadd_f32(0x100, 2, 16);
    dv_footprint(&in, &vs, r);
    expect_range(&r[0], DV_SPACE_UB, 0, 0x100, 0x100 + 512 + 256, 1);
    /* bit mask: elements 8..11 of each repeat = block 1, positions 0..3 */
    vs.hi = 0;
    vs.lo = 0xF00;
    in = vadd_f32(0x100, 3, 8);
    dv_footprint(&in, &vs, r);
    expect_range(&r[0], DV_SPACE_UB, 0, 0x100 + 32, 0x100 + 2 * 256 + 32 + 16, 1);
    /* count mode: 70 f32 = one full repeat and 6 elements; the repeat field is ignored */
    vs.count_mode = true;
    vs.lo = 70;
    in = vadd_f32(0x100, 200, 8);
    dv_footprint(&in, &vs, r);
    expect_range(&r[0], DV_SPACE_UB, 0, 0x100, 0x100 + 256 + 24, 1);
    /* ... with a 32-byte repeat stride the full first repeat reaches further than the tail */
    in = vadd_f32(0x100, 200, 1);
    dv_footprint(&in, &vs, r);
    expect_range(&r[0], DV_SPACE_UB, 0, 0x100, 0x100 + 256, 1);
    vs.lo = 0;
    ck_assert_int_eq(dv_footprint(&in, &vs, r), 0);
    /* zero repeats, mask of zero */
    dv_vstate_reset(&vs);
    in = vadd_f32(0x100, 0, 8);
    ck_assert_int_eq(dv_footprint(&in, &vs, r), 0);
    /* vcmp f16: E = 128, 16 bytes of bits per repeat */
    dv_insn_init(&in, DV_OP_vcmp);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, 0x40));
    sr_fsetu(&in, "src0", DV_ADDR(DV_SPACE_UB, 0x1000));
    sr_fsetu(&in, "src1", DV_ADDR(DV_SPACE_UB, 0x2000));
    sr_fset(&in, "dtype", DV_DT_F16);
    sr_fset(&in, "repeat", 5);
    ck_assert_int_eq(dv_footprint(&in, &vs, r), 3);
    expect_range(&r[0], DV_SPACE_UB, 0, 0x40, 0x40 + 80, 1);
    /* vcmax f32, dst_rep 3: pair r at 2*r*3 elements */
    dv_insn_init(&in, DV_OP_vcmax);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, 0));
    sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, 0x1000));
    sr_fset(&in, "dtype", DV_DT_F32);
    sr_fset(&in, "repeat", 4);
    sr_fset(&in, "dst_rep", 3);
    dv_footprint(&in, &vs, r);
    expect_range(&r[0], DV_SPACE_UB, 0, 0, 3 * 24 + 8, 1);
    expect_range(&r[1], DV_SPACE_UB, 0, 0x1000, 0x1000 + 4 * 256, 0);
}
END_TEST

START_TEST(test_semantics_footprint_cube)
{
    dv_range_t r[DV_MAX_RANGES];
    dv_insn_t in;
    /* mmad f16 20x40x30: M1 2, K1 3, N1 2 */
    dv_insn_init(&in, DV_OP_mmad);
    sr_fsetu(&in, "c", DV_ADDR(DV_SPACE_L0C, 0));
    sr_fsetu(&in, "a", DV_ADDR(DV_SPACE_L0A, 512));
    sr_fsetu(&in, "b", DV_ADDR(DV_SPACE_L0B, 0));
    sr_fset(&in, "dtype", DV_DT_F16);
    sr_fset(&in, "m", 20);
    sr_fset(&in, "k", 40);
    sr_fset(&in, "n", 30);
    sr_fset(&in, "init", 0);
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 4);
    expect_range(&r[0], DV_SPACE_L0C, 0, 0, 3320, 1);
    expect_range(&r[1], DV_SPACE_L0C, 0, 0, 3320, 0);
    expect_range(&r[2], DV_SPACE_L0A, 0, 512, 512 + 2672, 0);
    expect_range(&r[3], DV_SPACE_L0B, 0, 0, 2992, 0);
    sr_fset(&in, "init", 1);
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 3);
    /* load2d: base 2, repeat 3, src_stride 4, dst_gap 1 */
    dv_insn_init(&in, DV_OP_load_cbuf_to_ca);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_L0A, 0));
    sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_L1, 0));
    sr_fset(&in, "dtype", DV_DT_F16);
    sr_fset(&in, "base_idx", 2);
    sr_fset(&in, "repeat", 3);
    sr_fset(&in, "src_stride", 4);
    sr_fset(&in, "dst_gap", 1);
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 2);
    expect_range(&r[0], DV_SPACE_L0A, 0, 0, 2560, 1);
    expect_range(&r[1], DV_SPACE_L1, 0, 1024, 5632, 0);
    /* img2col 8x8x(c1 2), 3x3 kernel, pad 1: Ho = Wo = 8; rows 16..47 read ih 1..6 */
    dv_insn_init(&in, DV_OP_img2col_cbuf_to_ca);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_L0A, 0));
    sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_L1, 0));
    sr_fset(&in, "dtype", DV_DT_F16);
    sr_fset(&in, "fmap_h", 8);
    sr_fset(&in, "fmap_w", 8);
    sr_fset(&in, "c1", 2);
    sr_fset(&in, "kh", 3);
    sr_fset(&in, "kw", 3);
    sr_fset(&in, "pad_t", 1);
    sr_fset(&in, "pad_b", 1);
    sr_fset(&in, "pad_l", 1);
    sr_fset(&in, "pad_r", 1);
    sr_fset(&in, "m_start", 16);
    sr_fset(&in, "m_ext", 20);   /* M1 = 2 */
    sr_fset(&in, "k_start", 160); /* C0 groups 10..17: c1 = 1 only */
    sr_fset(&in, "k_ext", 128);   /* K1 = 8 */
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 2);
    expect_range(&r[0], DV_SPACE_L0A, 0, 0, 2 * 8 * 512, 1);
    /* rows 16..35: oh 2..4 -> ih 1..5; c1 = 1: bytes ((8+1)*8)*32 .. ((8+5)*8+8)*32 */
    expect_range(&r[1], DV_SPACE_L1, 0, 72 * 32, 112 * 32, 0);
}
END_TEST

START_TEST(test_semantics_footprint_and_xfer_dma)
{
    dv_range_t r[DV_MAX_RANGES];
    dv_xfer_t x;
    dv_insn_t in;
    dv_insn_init(&in, DV_OP_copy_gm_to_ubuf);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, 64));
    sr_fsetu(&in, "src", DV_GM_ADDR(2, 100));
    sr_fset(&in, "nburst", 3);
    sr_fset(&in, "len", 2);
    sr_fset(&in, "src_gap", 1);
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 2);
    expect_range(&r[0], DV_SPACE_UB, 0, 64, 64 + 192, 1);
    expect_range(&r[1], DV_SPACE_GM, 2, 100, 356, 0);
    ck_assert_int_eq(dv_xfer_shape(&in, &x), 0);
    ck_assert_uint_eq(x.src_bytes, 192);
    ck_assert_uint_eq(x.dst_bytes, 192);
    ck_assert_uint_eq(x.bursts, 3);
    ck_assert_uint_eq(x.burst_bytes, 64);
    ck_assert_uint_eq(dv_xfer_run_offset(&x, 0), 100);
    ck_assert_uint_eq(dv_xfer_run_offset(&x, 2), 292);
    /* UB -> GM: the GM side is the destination */
    dv_insn_init(&in, DV_OP_copy_ubuf_to_gm);
    sr_fsetu(&in, "dst", DV_GM_ADDR(0, 4096));
    sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, 0));
    sr_fset(&in, "nburst", 4);
    sr_fset(&in, "len", 1);
    sr_fset(&in, "dst_gap", 3);
    ck_assert_int_eq(dv_xfer_shape(&in, &x), 0);
    ck_assert_uint_eq(x.bursts, 4);
    ck_assert_uint_eq(dv_xfer_run_offset(&x, 3), 4096 + 3 * 128);
    /* nd2nz f16: 2 matrices of 3 rows x 20 columns */
    dv_insn_init(&in, DV_OP_copy_gm_to_cbuf_nd2nz);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_L1, 0));
    sr_fsetu(&in, "src", DV_GM_ADDR(1, 10));
    sr_fset(&in, "dtype", DV_DT_F16);
    sr_fset(&in, "nd_num", 2);
    sr_fset(&in, "n_value", 3);
    sr_fset(&in, "d_value", 20);
    sr_fset(&in, "src_nd_stride", 100);
    sr_fset(&in, "src_d_stride", 24);
    sr_fset(&in, "dst_c0_stride", 4);
    sr_fset(&in, "dst_n_stride", 1);
    sr_fset(&in, "dst_nd_stride", 10);
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 2);
    expect_range(&r[0], DV_SPACE_L1, 0, 0, 544, 1);
    expect_range(&r[1], DV_SPACE_GM, 1, 10, 10 + 336, 0);
    ck_assert_int_eq(dv_xfer_shape(&in, &x), 0);
    ck_assert_uint_eq(x.src_bytes, 240);
    ck_assert_uint_eq(x.dst_bytes, 2 * 3 * 2 * 32);
    ck_assert_uint_eq(x.bursts, 6);
    ck_assert_uint_eq(x.burst_bytes, 40);
    ck_assert_uint_eq(dv_xfer_run_offset(&x, 4), 10 + 200 + 48);
    /* fixpipe to GM, f16 ND: 20 rows of 40 */
    dv_insn_init(&in, DV_OP_copy_matrix_cc_to_gm);
    sr_fsetu(&in, "dst", DV_GM_ADDR(3, 0));
    sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_L0C, 0));
    sr_fset(&in, "m_size", 20);
    sr_fset(&in, "n_size", 40);
    sr_fset(&in, "src_stride", 32);
    sr_fset(&in, "dst_stride", 48);
    sr_fset(&in, "quant", DV_QUANT_F16);
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 2);
    expect_range(&r[0], DV_SPACE_GM, 3, 0, 1904, 1);
    expect_range(&r[1], DV_SPACE_L0C, 0, 0, 5344, 0);
    ck_assert_int_eq(dv_xfer_shape(&in, &x), 0);
    ck_assert_uint_eq(x.src_bytes, 3200);
    ck_assert_uint_eq(x.dst_bytes, 1600);
    ck_assert_uint_eq(x.bursts, 20);
    ck_assert_uint_eq(x.burst_bytes, 80);
    ck_assert_uint_eq(dv_xfer_run_offset(&x, 19), 19 * 96);
    /* NZ output with n a multiple of 16: one run per column block */
    sr_fset(&in, "nz2nd", 0);
    sr_fset(&in, "n_size", 32);
    ck_assert_int_eq(dv_xfer_shape(&in, &x), 0);
    ck_assert_uint_eq(x.bursts, 2);
    ck_assert_uint_eq(x.burst_bytes, 20 * 32);
    ck_assert_uint_eq(dv_xfer_run_offset(&x, 1), 48 * 32);
    /* load_gm_to_cb: fractal runs from base_idx */
    dv_insn_init(&in, DV_OP_load_gm_to_cb);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_L0B, 0));
    sr_fsetu(&in, "src", DV_GM_ADDR(0, 0));
    sr_fset(&in, "dtype", DV_DT_S8);
    sr_fset(&in, "base_idx", 1);
    sr_fset(&in, "repeat", 4);
    sr_fset(&in, "src_stride", 3);
    ck_assert_int_eq(dv_xfer_shape(&in, &x), 0);
    ck_assert_uint_eq(x.bursts, 4);
    ck_assert_uint_eq(dv_xfer_run_offset(&x, 2), 512 + 2 * 3 * 512);
    /* local-only transfers have no GM runs; other forms are not transfers */
    dv_insn_init(&in, DV_OP_load_cbuf_to_ca);
    sr_fset(&in, "dtype", DV_DT_F16);
    sr_fset(&in, "repeat", 2);
    ck_assert_int_eq(dv_xfer_shape(&in, &x), 0);
    ck_assert_uint_eq(x.bursts, 0);
    ck_assert_uint_eq(x.dst_bytes, 1024);
    in = vadd_f32(0, 1, 8);
    ck_assert_int_eq(dv_xfer_shape(&in, &x), -1);
    dv_insn_init(&in, DV_OP_set_flag);
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 0);
}
END_TEST

/* copy_*_align footprints are exactly the bytes touched; transfer shapes count len bytes per run. */
START_TEST(test_semantics_footprint_and_xfer_dma_pad)
{
    dv_range_t r[DV_MAX_RANGES];
    dv_xfer_t x;
    dv_insn_t in;
    /* GM -> UB: 3 bursts of 33 B; GM stride 33 + 5 = 38, UB stride 64 + 1*32 = 96 */
    dv_insn_init(&in, DV_OP_copy_gm_to_ubuf_align);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, 64));
    sr_fsetu(&in, "src", DV_GM_ADDR(2, 103));
    sr_fset(&in, "nburst", 3);
    sr_fset(&in, "len", 33);
    sr_fset(&in, "src_gap", 5);
    sr_fset(&in, "dst_gap", 1);
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 2);
    expect_range(&r[0], DV_SPACE_UB, 0, 64, 64 + 2 * 96 + 33, 1);
    expect_range(&r[1], DV_SPACE_GM, 2, 103, 103 + 2 * 38 + 33, 0);
    ck_assert_int_eq(dv_xfer_shape(&in, &x), 0);
    ck_assert_uint_eq(x.src_bytes, 99);
    ck_assert_uint_eq(x.dst_bytes, 99);
    ck_assert_uint_eq(x.bursts, 3);
    ck_assert_uint_eq(x.burst_bytes, 33);
    ck_assert_uint_eq(dv_xfer_run_offset(&x, 0), 103);
    ck_assert_uint_eq(dv_xfer_run_offset(&x, 2), 103 + 2 * 38);
    /* one burst: exactly len bytes on both sides */
    sr_fset(&in, "nburst", 1);
    sr_fset(&in, "len", 1);
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 2);
    expect_range(&r[0], DV_SPACE_UB, 0, 64, 65, 1);
    expect_range(&r[1], DV_SPACE_GM, 2, 103, 104, 0);
    /* UB -> GM: 4 bursts of 100 B; UB stride 128 + 2*32 = 192, GM stride 100 + 7 = 107 */
    dv_insn_init(&in, DV_OP_copy_ubuf_to_gm_align);
    sr_fsetu(&in, "dst", DV_GM_ADDR(0, 4097));
    sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, 0));
    sr_fset(&in, "nburst", 4);
    sr_fset(&in, "len", 100);
    sr_fset(&in, "src_gap", 2);
    sr_fset(&in, "dst_gap", 7);
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 2);
    expect_range(&r[0], DV_SPACE_GM, 0, 4097, 4097 + 3 * 107 + 100, 1);
    expect_range(&r[1], DV_SPACE_UB, 0, 0, 3 * 192 + 100, 0);
    ck_assert_int_eq(dv_xfer_shape(&in, &x), 0);
    ck_assert_uint_eq(x.src_bytes, 400);
    ck_assert_uint_eq(x.dst_bytes, 400);
    ck_assert_uint_eq(x.bursts, 4);
    ck_assert_uint_eq(x.burst_bytes, 100);
    ck_assert_uint_eq(x.gm_stride, 107);
    ck_assert_uint_eq(dv_xfer_run_offset(&x, 3), 4097 + 3 * 107);
    /* len a multiple of 32 with byte gaps of whole blocks: the same shape as the 32 B-unit copy */
    dv_insn_t plain;
    dv_xfer_t y;
    dv_range_t q[DV_MAX_RANGES];
    sr_fset(&in, "len", 96);
    sr_fset(&in, "dst_gap", 64);
    dv_insn_init(&plain, DV_OP_copy_ubuf_to_gm);
    plain.f[DV_FLD(DMA, dst)].u = DV_GM_ADDR(0, 4097);
    plain.f[DV_FLD(DMA, src)].u = DV_ADDR(DV_SPACE_UB, 0);
    plain.f[DV_FLD(DMA, nburst)].i = 4;
    plain.f[DV_FLD(DMA, len)].i = 3;
    plain.f[DV_FLD(DMA, src_gap)].i = 2;
    plain.f[DV_FLD(DMA, dst_gap)].i = 2;
    ck_assert_int_eq(dv_xfer_shape(&in, &x), 0);
    ck_assert_int_eq(dv_xfer_shape(&plain, &y), 0);
    ck_assert(memcmp(&x, &y, sizeof x) == 0);
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 2);
    ck_assert_int_eq(dv_footprint(&plain, NULL, q), 2);
    for (int k = 0; k < 2; k++)
        expect_range(&r[k], q[k].space, q[k].arg, q[k].lo, q[k].hi, q[k].write);
}
END_TEST

START_TEST(test_semantics_vec_geometry)
{
    dv_vgeom_t g;
    dv_vstate_t vs;
    dv_vstate_reset(&vs);
    dv_insn_t in = vadd_f32(0, 10, 8);
    ck_assert_int_eq(dv_vec_geometry(&in, &vs, &g), 3);
    ck_assert_uint_eq(g.repeats, 10);
    ck_assert_uint_eq(g.elems_per_repeat, 64);
    ck_assert_uint_eq(g.elems, 640);
    ck_assert_uint_eq(g.ops[0].blk_bytes, 32);
    ck_assert_uint_eq(g.ops[0].rep_stride, 256);
    ck_assert(g.ops[0].write && !g.ops[1].write);
    vs.count_mode = true;
    vs.lo = 100;
    dv_vec_geometry(&in, &vs, &g);
    ck_assert_uint_eq(g.repeats, 2);
    ck_assert_uint_eq(g.elems, 100);
    vs.count_mode = false;
    vs.hi = 0xff; /* ignored for 32-bit types */
    vs.lo = 0xf0f0;
    dv_vec_geometry(&in, &vs, &g);
    ck_assert_uint_eq(g.elems, 80);
    /* vconv f32 -> f16, dst_blk 1, dst_rep 4: 16 B blocks packed */
    dv_vstate_reset(&vs);
    dv_insn_init(&in, DV_OP_vconv);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, 0));
    sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, 4096));
    sr_fset(&in, "dst_type", DV_DT_F16);
    sr_fset(&in, "src_type", DV_DT_F32);
    sr_fset(&in, "repeat", 3);
    sr_fset(&in, "dst_rep", 4);
    ck_assert_int_eq(dv_vec_geometry(&in, &vs, &g), 2);
    ck_assert_uint_eq(g.elems_per_repeat, 64);
    ck_assert_uint_eq(g.ops[0].blk_bytes, 16);
    ck_assert_uint_eq(g.ops[0].blk_stride, 16);
    ck_assert_uint_eq(g.ops[0].rep_stride, 128);
    ck_assert_uint_eq(g.ops[1].base, 4096);
    ck_assert_uint_eq(g.ops[1].blk_bytes, 32);
    /* vsel f16: the mask operand is one 16-byte chunk per repeat */
    dv_insn_init(&in, DV_OP_vsel);
    sr_fset(&in, "dtype", DV_DT_F16);
    sr_fsetu(&in, "sel", DV_ADDR(DV_SPACE_UB, 512));
    sr_fset(&in, "repeat", 2);
    ck_assert_int_eq(dv_vec_geometry(&in, &vs, &g), 4);
    ck_assert_uint_eq(g.ops[3].base, 512);
    ck_assert_uint_eq(g.ops[3].blk_bytes, 16);
    ck_assert_uint_eq(g.ops[3].blk_stride, 0);
    ck_assert_uint_eq(g.ops[3].rep_stride, 16);
    ck_assert(!g.ops[3].write);
    /* copy_matrix_cc_to_ubuf: 20 x 40 f32 = 3200 B = 13 repeats, no UB-strided operands */
    dv_insn_init(&in, DV_OP_copy_matrix_cc_to_ubuf);
    sr_fset(&in, "m_size", 20);
    sr_fset(&in, "n_size", 40);
    ck_assert_int_eq(dv_vec_geometry(&in, &vs, &g), 0);
    ck_assert_uint_eq(g.repeats, 13);
    ck_assert_int_eq(g.nops, 0);
    dv_insn_init(&in, DV_OP_mmad);
    ck_assert_int_eq(dv_vec_geometry(&in, &vs, &g), -1);
}
END_TEST

/* vbrcb and vtranspose (§5, §6): fixed layouts, whatever the mask says. */
START_TEST(test_semantics_fixed_shape_footprint_and_geometry)
{
    dv_range_t r[DV_MAX_RANGES];
    dv_vgeom_t g;
    dv_xfer_t x;
    const dv_vstate_t vs = {.count_mode = true, .lo = 3}; /* would be one repeat of 3 elements */
    dv_insn_t in;
    dv_insn_init(&in, DV_OP_vbrcb);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, 0x100));
    sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, 0x2000));
    sr_fset(&in, "dtype", DV_DT_F32);
    sr_fset(&in, "repeat", 5);
    sr_fset(&in, "dst_blk", 2);
    sr_fset(&in, "dst_rep", 20);
    ck_assert_int_eq(dv_footprint(&in, &vs, r), 2);
    expect_range(&r[0], DV_SPACE_UB, 0, 0x100, 0x100 + 4 * 20 * 32 + 7 * 2 * 32 + 32, 1);
    expect_range(&r[1], DV_SPACE_UB, 0, 0x2000, 0x2000 + 5 * 8 * 4, 0);
    ck_assert_int_eq(dv_vec_geometry(&in, &vs, &g), 2);
    ck_assert_uint_eq(g.repeats, 5);
    ck_assert_uint_eq(g.elems_per_repeat, 64);
    ck_assert_uint_eq(g.elems, 5 * 64);
    ck_assert_uint_eq(g.ops[0].base, 0x100);
    ck_assert_uint_eq(g.ops[0].blk_bytes, 32);
    ck_assert_uint_eq(g.ops[0].blk_stride, 64);
    ck_assert_uint_eq(g.ops[0].rep_stride, 640);
    ck_assert(g.ops[0].write);
    ck_assert_uint_eq(g.ops[1].base, 0x2000);
    ck_assert_uint_eq(g.ops[1].blk_bytes, 32); /* the 8-element chunk */
    ck_assert_uint_eq(g.ops[1].blk_stride, 0);
    ck_assert_uint_eq(g.ops[1].rep_stride, 32);
    ck_assert(!g.ops[1].write);
    ck_assert_int_eq(dv_xfer_shape(&in, &x), -1);
    /* 16-bit, all blocks and repeats on one block: 32 B written, 3 x 16 B read */
    sr_fset(&in, "dtype", DV_DT_BF16);
    sr_fset(&in, "repeat", 3);
    sr_fset(&in, "dst_blk", 0);
    sr_fset(&in, "dst_rep", 0);
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 2);
    expect_range(&r[0], DV_SPACE_UB, 0, 0x100, 0x100 + 32, 1);
    expect_range(&r[1], DV_SPACE_UB, 0, 0x2000, 0x2000 + 3 * 16, 0);
    ck_assert_int_eq(dv_vec_geometry(&in, NULL, &g), 2);
    ck_assert_uint_eq(g.elems_per_repeat, 128);
    ck_assert_uint_eq(g.elems, 3 * 128);
    ck_assert_uint_eq(g.ops[1].blk_bytes, 16);
    ck_assert_uint_eq(g.ops[1].rep_stride, 16);
    /* no repeats: no ranges */
    sr_fset(&in, "repeat", 0);
    ck_assert_int_eq(dv_footprint(&in, &vs, r), 0);
    ck_assert_int_eq(dv_vec_geometry(&in, &vs, &g), 2);
    ck_assert_uint_eq(g.repeats, 0);
    /* an unsupported dtype has no footprint and no geometry */
    sr_fset(&in, "dtype", DV_DT_S8);
    ck_assert_int_eq(dv_footprint(&in, &vs, r), 0);
    ck_assert_int_eq(dv_vec_geometry(&in, &vs, &g), -1);

    dv_insn_init(&in, DV_OP_vtranspose);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, 0x400));
    sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, 0x0));
    sr_fset(&in, "dtype", DV_DT_F16);
    ck_assert_int_eq(dv_footprint(&in, &vs, r), 2);
    expect_range(&r[0], DV_SPACE_UB, 0, 0x400, 0x600, 1);
    expect_range(&r[1], DV_SPACE_UB, 0, 0x0, 0x200, 0);
    ck_assert_int_eq(dv_vec_geometry(&in, &vs, &g), 2);
    ck_assert_uint_eq(g.repeats, 2);
    ck_assert_uint_eq(g.elems_per_repeat, 128);
    ck_assert_uint_eq(g.elems, 256);
    for (int k = 0; k < 2; k++) {
        ck_assert_uint_eq(g.ops[k].base, k ? 0x0 : 0x400);
        ck_assert_uint_eq(g.ops[k].blk_bytes, 32);
        ck_assert_uint_eq(g.ops[k].blk_stride, 32);
        ck_assert_uint_eq(g.ops[k].rep_stride, 256);
        ck_assert(g.ops[k].write == (k == 0));
    }
}
END_TEST

/* ------------------------------------------------------------------ safety */

START_TEST(test_semantics_exec_refuses_out_of_bounds)
{
    sr_mem_t t;
    sr_tmem_init(&t);
    dv_error_t err = {0};
    dv_vstate_t vs;
    dv_vstate_reset(&vs);
    const uint8_t before = t.buf[DV_SPACE_UB][UB_SIZE - 1];
    dv_insn_t in = vadd_f32(UB_SIZE - 256, 2, 8); /* second repeat runs past the end */
    in.line = 42;
    int rc = dv_exec(&in, &vs, &t.m, &err);
    ck_assert_int_eq(rc, DV_ERR_RANGE);
    ck_assert_int_eq(err.line, 42);
    ck_assert_msg(strstr(err.msg, "vadd") && strstr(err.msg, "outside ub"), "%s", err.msg);
    ck_assert_int_eq(t.buf[DV_SPACE_UB][UB_SIZE - 1], before);
    /* GM argument past the end, and a GM argument that does not exist */
    dv_insn_init(&in, DV_OP_copy_gm_to_ubuf);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, 0));
    sr_fsetu(&in, "src", DV_GM_ADDR(1, GM_SIZE - 32));
    sr_fset(&in, "len", 2);
    rc = dv_exec(&in, &vs, &t.m, &err);
    ck_assert_int_eq(rc, DV_ERR_RANGE);
    ck_assert_msg(strstr(err.msg, "gm argument 1"), "%s", err.msg);
    sr_fsetu(&in, "src", DV_GM_ADDR(7, 0));
    rc = dv_exec(&in, &vs, &t.m, &err);
    ck_assert_int_eq(rc, DV_ERR_RANGE);
    ck_assert_msg(strstr(err.msg, "argument 7 does not exist"), "%s", err.msg);
    /* mmad C past L0C */
    dv_insn_init(&in, DV_OP_mmad);
    sr_fsetu(&in, "c", DV_ADDR(DV_SPACE_L0C, L0C_SIZE - 1024));
    sr_fsetu(&in, "a", DV_ADDR(DV_SPACE_L0A, 0));
    sr_fsetu(&in, "b", DV_ADDR(DV_SPACE_L0B, 0));
    sr_fset(&in, "dtype", DV_DT_F16);
    sr_fset(&in, "m", 32);
    sr_fset(&in, "k", 16);
    sr_fset(&in, "n", 16);
    ck_assert_int_eq(dv_exec(&in, &vs, &t.m, &err), DV_ERR_RANGE);
    /* a timing-only run (no buffer) does nothing and succeeds */
    t.m.buf[DV_SPACE_UB] = NULL;
    in = vadd_f32(UB_SIZE - 256, 2, 8);
    ck_assert_int_eq(dv_exec(&in, &vs, &t.m, &err), DV_OK);
    t.m.buf[DV_SPACE_UB] = t.buf[DV_SPACE_UB];
    t.m.gm = NULL;
    dv_insn_init(&in, DV_OP_copy_gm_to_ubuf);
    sr_fsetu(&in, "src", DV_GM_ADDR(1, 0));
    sr_fset(&in, "len", 1);
    memset(t.buf[DV_SPACE_UB], 0x5a, 32);
    ck_assert_int_eq(dv_exec(&in, &vs, &t.m, &err), DV_OK);
    ck_assert_int_eq(t.buf[DV_SPACE_UB][0], 0x5a);
    /* sync and scalar instructions are no-ops */
    dv_insn_init(&in, DV_OP_pipe_barrier);
    ck_assert_int_eq(dv_exec(&in, &vs, &t.m, &err), DV_OK);
    sr_tmem_free(&t);
}
END_TEST

/* vtranspose with overlapping operands is refused with its line, before any byte changes; so are
 * unsupported dtypes and operands outside UB of the fixed-shape forms. */
START_TEST(test_semantics_fixed_shape_bad_input)
{
    sr_mem_t t;
    sr_tmem_init(&t);
    uint8_t *keep = malloc(UB_SIZE);
    memcpy(keep, t.buf[DV_SPACE_UB], UB_SIZE);
    dv_error_t err = {0};
    dv_insn_t in;
    dv_insn_init(&in, DV_OP_vtranspose);
    sr_fset(&in, "dtype", DV_DT_F16);
    in.line = 17;
    /* src starts 480 B into dst, on dst itself, 32 B before it */
    const uint64_t srcs[] = {0x11e0, 0x1000, 0xfe0};
    const char *const msgs[] = {"vtranspose: dst [0x1000, 0x1200) and src [0x11e0, 0x13e0) overlap",
                                "vtranspose: dst [0x1000, 0x1200) and src [0x1000, 0x1200) overlap",
                                "vtranspose: dst [0x1000, 0x1200) and src [0xfe0, 0x11e0) overlap"};
    for (int k = 0; k < 3; k++) {
        sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, 0x1000));
        sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, srcs[k]));
        ck_assert_int_eq(dv_insn_check(&in, &err), DV_OK); /* a relation between addresses: checked on execution */
        err.line = 0;
        ck_assert_int_eq(dv_exec(&in, NULL, &t.m, &err), DV_ERR_RANGE);
        ck_assert_int_eq(err.line, 17);
        ck_assert_str_eq(err.msg, msgs[k]);
        ck_assert(memcmp(t.buf[DV_SPACE_UB], keep, UB_SIZE) == 0);
    }
    /* adjacent on either side is fine */
    sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, 0x1200));
    ck_assert_int_eq(dv_exec(&in, NULL, &t.m, &err), DV_OK);
    sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, 0xe00));
    ck_assert_int_eq(dv_exec(&in, NULL, &t.m, &err), DV_OK);
    /* a 4-byte type: refused by the table check and, defensively, by dv_exec */
    sr_fset(&in, "dtype", DV_DT_F32);
    ck_assert_int_eq(dv_insn_check(&in, &err), DV_ERR_RANGE);
    ck_assert_int_eq(err.line, 17);
    ck_assert_str_eq(err.msg, "vtranspose: dtype f32 is not supported");
    ck_assert_int_eq(dv_exec(&in, NULL, &t.m, &err), DV_ERR_UNSUPPORTED);
    ck_assert_int_eq(err.line, 17);
    /* an operand outside UB (dv_insn_check names the field) */
    sr_fset(&in, "dtype", DV_DT_F16);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_L1, 0));
    ck_assert_int_eq(dv_insn_check(&in, &err), DV_ERR_RANGE);
    ck_assert_str_eq(err.msg, "vtranspose: field 'dst' must address ub, not l1");
    ck_assert_int_eq(dv_exec(&in, NULL, &t.m, &err), DV_ERR_RANGE);
    ck_assert_msg(strstr(err.msg, "vtranspose: vector operand 0 is not in ub"), "%s", err.msg);
    /* vbrcb: 8-bit types are not supported; repeat is limited to 255 */
    dv_insn_init(&in, DV_OP_vbrcb);
    in.line = 23;
    sr_fset(&in, "dtype", DV_DT_S8);
    sr_fset(&in, "repeat", 1);
    ck_assert_int_eq(dv_insn_check(&in, &err), DV_ERR_RANGE);
    ck_assert_int_eq(err.line, 23);
    ck_assert_str_eq(err.msg, "vbrcb: dtype s8 is not supported");
    ck_assert_int_eq(dv_exec(&in, NULL, &t.m, &err), DV_ERR_UNSUPPORTED);
    ck_assert_str_eq(err.msg, "vbrcb: unsupported dtype");
    sr_fset(&in, "dtype", DV_DT_U32);
    sr_fset(&in, "repeat", 256);
    ck_assert_int_eq(dv_insn_check(&in, &err), DV_ERR_RANGE);
    ck_assert_str_eq(err.msg, "vbrcb: field 'repeat' = 256 is out of range [0, 255]");
    /* past the end of UB */
    sr_fset(&in, "repeat", 2);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, UB_SIZE - 256));
    ck_assert_int_eq(dv_exec(&in, NULL, &t.m, &err), DV_ERR_RANGE);
    ck_assert_msg(strstr(err.msg, "vbrcb: write of bytes"), "%s", err.msg);
    free(keep);
    sr_tmem_free(&t);
}
END_TEST

/* Random instructions of every form on buffers exactly as large as their footprints: nothing is
 * touched outside (AddressSanitizer catches reads past the end) and nothing outside a write range
 * changes. */
START_TEST(test_semantics_footprint_covers_exec)
{
    sr_seed(30);
    for (int iter = 0; iter < 600; iter++) {
        dv_insn_t in;
        dv_vstate_t vs;
        dv_vstate_reset(&vs);
        const dv_op_t op = (dv_op_t)sr_rndn(DV_OP_COUNT);
        const dv_op_spec_t *os = dv_op_spec(op);
        const dv_form_spec_t *fs = dv_form_spec(os->form);
        dv_insn_init(&in, op);
        for (int i = 0; i < fs->nfields; i++) { /* random valid field values, small enough to run */
            const dv_field_spec_t *fd = &fs->fields[i];
            switch (fd->kind) {
            case DV_FK_ADDR: {
                const int sp = fd->space == DV_FS_DST ? (int)os->dst_space : fd->space == DV_FS_SRC ? (int)os->src_space : fd->space;
                in.f[i].u = sp == DV_SPACE_GM ? DV_GM_ADDR(sr_rndn(2), 32 * sr_rndn(8)) : DV_ADDR(sp, 32 * sr_rndn(8));
                break;
            }
            case DV_FK_DTYPE: {
                int dt;
                do
                    dt = (int)sr_rndn(DV_DT_COUNT);
                while (os->dtypes && !(os->dtypes & (1u << dt)));
                in.f[i].i = dt;
                break;
            }
            case DV_FK_F64: in.f[i].d = (double)sr_rndn(100) / 3; break;
            case DV_FK_U64: in.f[i].u = sr_rnd(); break;
            default: {
                const int64_t hi = fd->max < fd->min + 40 ? fd->max : fd->min + 40;
                in.f[i].i = fd->min + (int64_t)sr_rndn((uint32_t)(hi - fd->min + 1));
            }
            }
        }
        if (os->form == DV_FORM_VCONV) { /* a valid pair */
            static const int pr[][2] = {{DV_DT_F16, DV_DT_F32}, {DV_DT_S8, DV_DT_F16}, {DV_DT_F32, DV_DT_S32}};
            const int k = (int)sr_rndn(3);
            sr_fset(&in, "dst_type", pr[k][0]);
            sr_fset(&in, "src_type", pr[k][1]);
        }
        if (os->form == DV_FORM_LOAD2D && sr_sz((int)in.f[dv_field_index(op, "dtype")].i) != 2)
            sr_fset(&in, "transpose", 0);
        if (os->form == DV_FORM_VREDUCE && op != DV_OP_vcmax && op != DV_OP_vcmin)
            sr_fset(&in, "order", 0); /* vcmax / vcmin's only */
        if (os->form == DV_FORM_DMAPADIN) { /* pads of at most 32 bytes each */
            sr_fset(&in, "esize", 4);
            sr_fset(&in, "lpad", sr_rndn(9));
            sr_fset(&in, "rpad", sr_rndn(9));
        }
        if (os->form == DV_FORM_IMG2COL) {
            sr_fset(&in, "k_start", 32 * sr_rndn(4)); /* multiples of every type's C0 */
            sr_fset(&in, "k_ext", 32 * (1 + sr_rndn(4)));
            if (sr_sz((int)in.f[dv_field_index(op, "dtype")].i) == 1)
                sr_fset(&in, "transpose", 0);
        }
        const bool gather = os->form == DV_FORM_VGATHER || os->form == DV_FORM_VGATHERB;
        if (os->form == DV_FORM_VGATHER) /* offsets of 0 (below) then read the source's first element */
            sr_fset(&in, "base", 0);
        if (gather)
            sr_fset(&in, "src_len", 32 + sr_rndn(64));
        if (os->form == DV_FORM_VTRANSPOSE) /* operands must not overlap */
            sr_fsetu(&in, "src", in.f[DV_FLD(VTRANSPOSE, dst)].u + 512 + 32 * sr_rndn(8));
        if (sr_rndn(3) == 0) {
            vs.count_mode = true;
            vs.lo = sr_rndn(700);
        } else if (sr_rndn(2)) {
            vs.hi = sr_rnd() & sr_rnd();
            vs.lo = sr_rnd() & sr_rnd();
        }
        dv_error_t err;
        ck_assert_msg(dv_insn_check(&in, &err) == 0, "%s", err.msg);
        dv_range_t r[DV_MAX_RANGES];
        const int n = dv_footprint(&in, &vs, r);
        /* exact-size buffers */
        uint64_t need[DV_SPACE_COUNT] = {0}, gneed[2] = {0};
        for (int i = 0; i < n; i++) {
            uint64_t *p = r[i].space == DV_SPACE_GM ? &gneed[r[i].arg] : &need[r[i].space];
            if (r[i].hi > *p)
                *p = r[i].hi;
        }
        dv_mem_t m = {0};
        uint8_t *keep[DV_SPACE_COUNT + 2] = {0};
        uint8_t *gm[2] = {0};
        uint64_t gsz[2];
        for (int s = 0; s < DV_SPACE_COUNT + 2; s++) {
            const uint64_t size = s < DV_SPACE_COUNT ? need[s] : gneed[s - DV_SPACE_COUNT];
            uint8_t *b = malloc(size ? size : 1);
            for (uint64_t i = 0; i < size; i++)
                b[i] = (uint8_t)sr_rnd();
            if (gather && s == DV_SPACE_UB && n > 1) /* the offsets (range 1): all 0 */
                memset(b + r[1].lo, 0, r[1].hi - r[1].lo);
            keep[s] = malloc(size ? size : 1);
            memcpy(keep[s], b, size);
            if (s < DV_SPACE_COUNT) {
                m.buf[s] = b;
                m.size[s] = size;
            } else {
                gm[s - DV_SPACE_COUNT] = b;
                gsz[s - DV_SPACE_COUNT] = size;
            }
        }
        m.ngm = 2;
        m.gm = gm;
        m.gm_size = gsz;
        const int rc = dv_exec(&in, &vs, &m, &err);
        ck_assert_msg(rc == 0, "%s: %s", os->mnemonic, err.msg);
        for (int s = 0; s < DV_SPACE_COUNT + 2; s++) {
            const bool g = s >= DV_SPACE_COUNT;
            const uint8_t *b = g ? gm[s - DV_SPACE_COUNT] : m.buf[s];
            const uint64_t size = g ? gsz[s - DV_SPACE_COUNT] : m.size[s];
            for (uint64_t i = 0; i < size; i++) {
                if (b[i] == keep[s][i])
                    continue;
                bool inside = false;
                for (int k = 0; k < n; k++)
                    inside |= r[k].write && (g ? r[k].space == DV_SPACE_GM && r[k].arg == s - DV_SPACE_COUNT : r[k].space == s) &&
                              i >= r[k].lo && i < r[k].hi;
                ck_assert_msg(inside, "%s wrote byte %llu of space %d outside its write ranges", os->mnemonic,
                              (unsigned long long)i, s);
            }
            free(keep[s]);
            free((void *)b);
        }
    }
}
END_TEST

/* Two vector geometries are the same, field by field. */
static void expect_same_vgeom(const dv_vgeom_t *ga, const dv_vgeom_t *gb)
{
    ck_assert_uint_eq(ga->repeats, gb->repeats);
    ck_assert_uint_eq(ga->elems_per_repeat, gb->elems_per_repeat);
    ck_assert_uint_eq(ga->elems, gb->elems);
    ck_assert_int_eq(ga->nops, gb->nops);
    for (int k = 0; k < gb->nops; k++) {
        ck_assert_uint_eq(ga->ops[k].base, gb->ops[k].base);
        ck_assert_uint_eq(ga->ops[k].blk_bytes, gb->ops[k].blk_bytes);
        ck_assert_uint_eq(ga->ops[k].blk_stride, gb->ops[k].blk_stride);
        ck_assert_uint_eq(ga->ops[k].rep_stride, gb->ops[k].rep_stride);
        ck_assert_int_eq(ga->ops[k].write, gb->ops[k].write);
    }
}

/* The full-mask case of the element-strided forms (vadd, vabs, vadds, vdup) has its own
 * closed form: it must give what the general decode gives for the same elements, reached here by
 * count mode with R * E elements (every repeat whole), and by a 4-byte type's mask with its ignored
 * high word cleared; out-of-range fields, which the general decode clamps, leave the closed form. */
START_TEST(test_semantics_footprint_full_mask_matches_general)
{
    static const dv_op_t ops[] = {DV_OP_vadd, DV_OP_vabs, DV_OP_vadds, DV_OP_vdup};
    static const dv_dtype_t types[] = {DV_DT_F16, DV_DT_F32};
    uint64_t seed = 12345;
    for (int it = 0; it < 4000; it++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        const dv_op_t op = ops[(seed >> 33) % 4];
        const dv_dtype_t t = types[(seed >> 40) & 1];
        dv_insn_t in;
        dv_insn_init(&in, op);
        const dv_form_spec_t *fs = dv_form_spec(dv_op_spec(op)->form);
        for (int i = 0; i < fs->nfields; i++) {
            const char *name = fs->fields[i].name;
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            const int64_t v = (int64_t)((seed >> 33) % 260); /* a few past 255 */
            if (fs->fields[i].kind == DV_FK_ADDR)
                sr_fsetu(&in, name, DV_ADDR(DV_SPACE_UB, (seed >> 20) % 4096 * 32));
            else if (fs->fields[i].kind == DV_FK_DTYPE)
                sr_fset(&in, name, t);
            else if (fs->fields[i].kind == DV_FK_INT)
                sr_fset(&in, name, strcmp(name, "repeat") == 0 ? 1 + v % 255 : v);
        }
        const int64_t R = in.f[dv_field_index(op, "repeat")].i, E = 256 / dv_dtype_size(t);
        dv_vstate_t full, other;
        dv_vstate_reset(&full);
        dv_vstate_reset(&other);
        if (t == DV_DT_F32 && it % 2) {
            other.hi = 0;
        } else {
            other.count_mode = true;
            other.lo = (uint64_t)(R * E);
        }
        dv_range_t a[DV_MAX_RANGES], b[DV_MAX_RANGES], c[DV_MAX_RANGES];
        dv_vgeom_t ga, gb;
        const int na = dv_vec_footprint(&in, &full, a, &ga), nb = dv_vec_footprint(&in, &other, b, &gb);
        ck_assert_int_eq(na, nb);
        ck_assert_int_eq(dv_footprint(&in, &full, c), na);
        for (int k = 0; k < na; k++) {
            expect_range(&a[k], b[k].space, b[k].arg, b[k].lo, b[k].hi, b[k].write);
            expect_range(&c[k], b[k].space, b[k].arg, b[k].lo, b[k].hi, b[k].write);
        }
        expect_same_vgeom(&ga, &gb);
    }
}
END_TEST

/* A random field of op os from seed: an address in the field's space (GM: argument 0-2; offsets
 * 32-byte aligned, under 3.2 MB) or a dtype (f16 or f32) into *v (true); another kind: false. */
static bool random_addr_or_dtype(const dv_op_spec_t *os, const dv_field_spec_t *fd, uint64_t seed, dv_val_t *v)
{
    if (fd->kind == DV_FK_ADDR) {
        const int sp = fd->space == DV_FS_DST   ? (int)os->dst_space
                       : fd->space == DV_FS_SRC ? (int)os->src_space
                                                : fd->space;
        v->u = sp == DV_SPACE_GM ? DV_GM_ADDR((seed >> 20) % 3, (seed >> 24) % 100000 * 32)
                                 : DV_ADDR(sp, (seed >> 24) % 100000 * 32);
        return true;
    }
    if (fd->kind == DV_FK_DTYPE) {
        v->i = (seed >> 40) & 1 ? DV_DT_F16 : DV_DT_F32;
        return true;
    }
    return false;
}

/* Two decodes of a transfer agree: the same ranges (na of a, nb of b) and the same shape. */
static void expect_same_transfer(int na, const dv_range_t *a, const dv_xfer_t *xa, int nb, const dv_range_t *b,
                                 const dv_xfer_t *xb)
{
    ck_assert_int_eq(na, nb);
    for (int k = 0; k < na; k++)
        expect_range(&a[k], b[k].space, b[k].arg, b[k].lo, b[k].hi, b[k].write);
    ck_assert_uint_eq(xa->src_bytes, xb->src_bytes);
    ck_assert_uint_eq(xa->dst_bytes, xb->dst_bytes);
    ck_assert_uint_eq(xa->bursts, xb->bursts);
    ck_assert_uint_eq(xa->burst_bytes, xb->burst_bytes);
    ck_assert_uint_eq(xa->gm_lo, xb->gm_lo);
    ck_assert_uint_eq(xa->gm_stride, xb->gm_stride);
    ck_assert_uint_eq(xa->group, xb->group);
    ck_assert_uint_eq(xa->group_stride, xb->group_stride);
}

/* DMA, LOAD2D and MMAD footprints and DMA and LOAD2D transfer shapes have closed forms for fields
 * inside their ranges; a field past its maximum takes the general code, which reads it as the
 * maximum: both must agree (random instructions, each with one field at its maximum, then past it). */
START_TEST(test_semantics_footprint_closed_forms_match_general)
{
    static const dv_op_t ops[] = {DV_OP_copy_gm_to_ubuf, DV_OP_copy_ubuf_to_gm, DV_OP_load_cbuf_to_ca,
                                  DV_OP_load_gm_to_cb, DV_OP_mmad};
    uint64_t seed = 777;
    for (int it = 0; it < 6000; it++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        const dv_op_t op = ops[(seed >> 33) % 5];
        const dv_op_spec_t *os = dv_op_spec(op);
        const dv_form_spec_t *fs = dv_form_spec(os->form);
        dv_insn_t in;
        dv_insn_init(&in, op);
        int ints[DV_MAX_FIELDS], nint = 0;
        for (int i = 0; i < fs->nfields; i++) {
            const dv_field_spec_t *fd = &fs->fields[i];
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            if (!random_addr_or_dtype(os, fd, seed, &in.f[i]) && (fd->kind == DV_FK_INT || fd->kind == DV_FK_BOOL)) {
                const uint64_t span = (uint64_t)(fd->max - fd->min) + 1;
                in.f[i].i = fd->min + (int64_t)((seed >> 33) % (span < 40 ? span : 40));
                ints[nint++] = i;
            }
        }
        if (op == DV_OP_load_gm_to_cb || op == DV_OP_load_cbuf_to_ca)
            in.f[dv_field_index(op, "transpose")].i = 0;
        const int fi = ints[(seed >> 45) % nint];
        dv_insn_t past = in;
        in.f[fi].i = fs->fields[fi].max;
        past.f[fi].i = fs->fields[fi].max + 1 + (int64_t)((seed >> 50) % 3);
        dv_range_t a[DV_MAX_RANGES], b[DV_MAX_RANGES];
        const int na = dv_footprint(&in, NULL, a), nb = dv_footprint(&past, NULL, b);
        dv_xfer_t xa, xb;
        ck_assert_int_eq(dv_xfer_shape(&in, &xa), dv_xfer_shape(&past, &xb));
        expect_same_transfer(na, a, &xa, nb, b, &xb);
    }
}
END_TEST

/* dv_xfer_footprint decodes a DMA or LOAD2D once for both: its ranges must be dv_footprint's and its
 * shape dv_xfer_shape's, for every op of those forms (and of the other transfer forms, which it hands
 * to the two) over random fields, some past their maximum (the general code's case). */
START_TEST(test_semantics_xfer_footprint_matches_both)
{
    uint64_t seed = 4242;
    int checked[DV_FORM_COUNT] = {0};
    for (int op = 0; op < DV_OP_COUNT; op++) {
        const dv_op_spec_t *os = dv_op_spec((dv_op_t)op);
        if (!os || (os->form != DV_FORM_DMA && os->form != DV_FORM_LOAD2D && os->form != DV_FORM_ND2NZ &&
                    os->form != DV_FORM_FIXPIPE && os->form != DV_FORM_LOAD2DT))
            continue;
        const dv_form_spec_t *fs = dv_form_spec(os->form);
        for (int it = 0; it < 3000; it++) {
            dv_insn_t in;
            dv_insn_init(&in, (dv_op_t)op);
            for (int i = 0; i < fs->nfields; i++) {
                const dv_field_spec_t *fd = &fs->fields[i];
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                if (!random_addr_or_dtype(os, fd, seed, &in.f[i]) &&
                    (fd->kind == DV_FK_INT || fd->kind == DV_FK_BOOL)) {
                    const uint64_t span = (uint64_t)(fd->max - fd->min) + 1;
                    const uint64_t pick = (seed >> 33) % 16;
                    in.f[i].i = pick == 0   ? fd->max + 1 + (int64_t)((seed >> 50) % 3) /* past it */
                                : pick == 1 ? fd->max
                                            : fd->min + (int64_t)((seed >> 37) % (span < 300 ? span : 300));
                }
            }
            dv_vstate_t vs;
            dv_vstate_reset(&vs);
            dv_range_t a[DV_MAX_RANGES], b[DV_MAX_RANGES];
            dv_xfer_t xa, xb;
            memset(&xa, 0xA5, sizeof xa); /* every field must be written */
            const int na = dv_xfer_footprint(&in, &vs, a, &xa);
            const int nb = dv_footprint(&in, &vs, b);
            dv_xfer_shape(&in, &xb);
            expect_same_transfer(na, a, &xa, nb, b, &xb);
            checked[os->form]++;
        }
    }
    ck_assert_int_gt(checked[DV_FORM_DMA], 0);
    ck_assert_int_gt(checked[DV_FORM_LOAD2D], 0);
}
END_TEST

/* An ND2NZ copy has its own closed form in dv_xfer_footprint: hand-computed ranges and shape for an s8
 * and an f16 copy (C0 = 32 and 16 elements: D_VALUE 40 fills 2 and 3 groups of 32 bytes), then every
 * dtype, valid or not, over random fields, some past their range, against dv_footprint + dv_xfer_shape. */
START_TEST(test_semantics_xfer_footprint_nd2nz)
{
    static const struct {
        dv_dtype_t t;
        uint64_t dst_hi, src_hi, src_bytes, dst_bytes, burst_bytes, gm_stride, group_stride;
    } hand[] = {
        /* dst: ((ND-1)*16 + (c1-1)*4 + (N-1)*1) * 32 + 32; src: ((ND-1)*200 + (N-1)*50 + 40) * size */
        {DV_DT_S8, 22 * 32 + 32, 340, 2 * 3 * 40, 2 * 3 * 2 * 32, 40, 50, 200},
        {DV_DT_F16, 26 * 32 + 32, 680, 2 * 3 * 80, 2 * 3 * 3 * 32, 80, 100, 400},
    };
    for (int h = 0; h < 2; h++) {
        dv_insn_t in;
        dv_insn_init(&in, DV_OP_copy_gm_to_cbuf_nd2nz);
        sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_L1, 0x1000));
        sr_fsetu(&in, "src", DV_GM_ADDR(1, 0x200));
        sr_fset(&in, "dtype", hand[h].t);
        sr_fset(&in, "nd_num", 2);
        sr_fset(&in, "n_value", 3);
        sr_fset(&in, "d_value", 40);
        sr_fset(&in, "src_nd_stride", 200);
        sr_fset(&in, "src_d_stride", 50);
        sr_fset(&in, "dst_c0_stride", 4);
        sr_fset(&in, "dst_n_stride", 1);
        sr_fset(&in, "dst_nd_stride", 16);
        dv_range_t r[DV_MAX_RANGES];
        dv_xfer_t x;
        memset(&x, 0xA5, sizeof x);
        ck_assert_int_eq(dv_xfer_footprint(&in, NULL, r, &x), 2);
        expect_range(&r[0], DV_SPACE_L1, 0, 0x1000, 0x1000 + hand[h].dst_hi, 1);
        expect_range(&r[1], DV_SPACE_GM, 1, 0x200, 0x200 + hand[h].src_hi, 0);
        ck_assert_uint_eq(x.src_bytes, hand[h].src_bytes);
        ck_assert_uint_eq(x.dst_bytes, hand[h].dst_bytes);
        ck_assert_uint_eq(x.bursts, 6);
        ck_assert_uint_eq(x.burst_bytes, hand[h].burst_bytes);
        ck_assert_uint_eq(x.gm_lo, 0x200);
        ck_assert_uint_eq(x.gm_stride, hand[h].gm_stride);
        ck_assert_uint_eq(x.group, 3);
        ck_assert_uint_eq(x.group_stride, hand[h].group_stride);
    }
    const dv_op_t op = DV_OP_copy_gm_to_cbuf_nd2nz;
    const dv_op_spec_t *os = dv_op_spec(op);
    const dv_form_spec_t *fs = dv_form_spec(os->form);
    uint64_t seed = 2929;
    int valid = 0;
    for (int it = 0; it < 20000; it++) {
        dv_insn_t in;
        dv_insn_init(&in, op);
        bool inside = true;
        for (int i = 0; i < fs->nfields; i++) {
            const dv_field_spec_t *fd = &fs->fields[i];
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            if (fd->kind == DV_FK_DTYPE) { /* every dtype and a few past the table */
                in.f[i].i = (int64_t)((seed >> 33) % (DV_DT_COUNT + 3)) - 1;
                inside &= in.f[i].i >= 0 && in.f[i].i < DV_DT_COUNT && (os->dtypes >> in.f[i].i & 1);
            } else if (!random_addr_or_dtype(os, fd, seed, &in.f[i]) && fd->kind == DV_FK_INT) {
                const uint64_t span = (uint64_t)(fd->max - fd->min) + 1, pick = (seed >> 33) % 24;
                in.f[i].i = pick == 0   ? fd->max + 1 + (int64_t)((seed >> 50) % 3) /* past it */
                            : pick == 1 ? fd->min - 1 - (int64_t)((seed >> 50) % 3)
                            : pick == 2 ? fd->max
                                        : fd->min + (int64_t)((seed >> 37) % (span < 300 ? span : 300));
                inside &= in.f[i].i >= fd->min && in.f[i].i <= fd->max;
            }
        }
        valid += inside;
        dv_range_t a[DV_MAX_RANGES], b[DV_MAX_RANGES];
        dv_xfer_t xa, xb;
        memset(&xa, 0xA5, sizeof xa); /* every field must be written */
        const int na = dv_xfer_footprint(&in, NULL, a, &xa);
        const int nb = dv_footprint(&in, NULL, b);
        dv_xfer_shape(&in, &xb);
        expect_same_transfer(na, a, &xa, nb, b, &xb);
    }
    ck_assert_int_gt(valid, 1000); /* the closed form's case, many times */
}
END_TEST

/* dv_xfer_footprint and dv_vec_footprint choose their case by the op (a table from isa.def's rows): for
 * every op, and for op ids past the table, each must give dv_footprint's ranges with dv_xfer_shape's
 * shape, and dv_footprint's ranges with dv_vec_geometry's geometry, over random fields (some at or past
 * their range) and mask states (full, partial, count mode). */
START_TEST(test_semantics_footprint_every_op_agrees)
{
    uint64_t seed = 90210;
    for (int op = 0; op < DV_OP_COUNT + 3; op++) {
        const dv_op_spec_t *os = dv_op_spec((dv_op_t)op);
        const dv_form_spec_t *fs = os ? dv_form_spec(os->form) : NULL;
        for (int it = 0; it < 400; it++) {
            dv_insn_t in;
            if (os)
                dv_insn_init(&in, (dv_op_t)op);
            else
                memset(&in, 0, sizeof in);
            in.op = (uint16_t)op;
            for (int i = 0; fs && i < fs->nfields; i++) {
                const dv_field_spec_t *fd = &fs->fields[i];
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                if (!random_addr_or_dtype(os, fd, seed, &in.f[i]) && (fd->kind == DV_FK_INT || fd->kind == DV_FK_BOOL)) {
                    const uint64_t span = (uint64_t)(fd->max - fd->min) + 1, pick = (seed >> 33) % 16;
                    in.f[i].i = pick == 0   ? fd->max + 1 + (int64_t)((seed >> 50) % 3) /* past it */
                                : pick == 1 ? fd->max
                                            : fd->min + (int64_t)((seed >> 37) % (span < 300 ? span : 300));
                }
            }
            dv_vstate_t vs;
            dv_vstate_reset(&vs);
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            if (seed >> 62 == 1)
                vs.hi = seed >> 7;
            else if (seed >> 62 == 2) {
                vs.count_mode = true;
                vs.lo = (seed >> 20) % 5000;
            }
            dv_range_t a[DV_MAX_RANGES], b[DV_MAX_RANGES];
            dv_xfer_t xa, xb;
            memset(&xa, 0xA5, sizeof xa); /* every field must be written */
            int na = dv_xfer_footprint(&in, &vs, a, &xa), nb = dv_footprint(&in, &vs, b);
            dv_xfer_shape(&in, &xb);
            expect_same_transfer(na, a, &xa, nb, b, &xb);
            /* an instruction that passes the checks touches only spaces its pipe's ops address, and writes
             * only in those that are not an op's source (dv_pipe_spaces: the hazard checker relies on it) */
            if (os && dv_insn_check(&in, NULL) == DV_OK)
                for (int k = 0; k < nb; k++) {
                    ck_assert_msg(dv_pipe_spaces(os->pipe, false) >> b[k].space & 1, "%s touches %s", os->mnemonic,
                                  dv_space_name((dv_space_t)b[k].space));
                    ck_assert_msg(!b[k].write || (dv_pipe_spaces(os->pipe, true) >> b[k].space & 1), "%s writes %s",
                                  os->mnemonic, dv_space_name((dv_space_t)b[k].space));
                }
            dv_vgeom_t ga, gb;
            memset(&ga, 0xA5, sizeof ga);
            na = dv_vec_footprint(&in, &vs, a, &ga);
            ck_assert_int_eq(na, nb);
            for (int k = 0; k < na; k++)
                expect_range(&a[k], b[k].space, b[k].arg, b[k].lo, b[k].hi, b[k].write);
            dv_vec_geometry(&in, &vs, &gb);
            expect_same_vgeom(&ga, &gb);
        }
    }
}
END_TEST

Suite *dv_semantics_footprint_suite(void)
{
    Suite *s = suite_create("semantics_footprint");
    TCase *tc = sr_tcase(s, "shape");
    tcase_add_test(tc, test_semantics_footprint_vector);
    tcase_add_test(tc, test_semantics_footprint_cube);
    tcase_add_test(tc, test_semantics_footprint_and_xfer_dma);
    tcase_add_test(tc, test_semantics_footprint_and_xfer_dma_pad);
    tcase_add_test(tc, test_semantics_vec_geometry);
    tcase_add_test(tc, test_semantics_footprint_full_mask_matches_general);
    tcase_add_test(tc, test_semantics_footprint_closed_forms_match_general);
    tcase_add_test(tc, test_semantics_xfer_footprint_matches_both);
    tcase_add_test(tc, test_semantics_xfer_footprint_nd2nz);
    tcase_add_test(tc, test_semantics_footprint_every_op_agrees);
    tcase_add_test(tc, test_semantics_fixed_shape_footprint_and_geometry);
    tc = sr_tcase(s, "safety");
    tcase_add_test(tc, test_semantics_exec_refuses_out_of_bounds);
    tcase_add_test(tc, test_semantics_fixed_shape_bad_input);
    tcase_add_test(tc, test_semantics_footprint_covers_exec);
    return s;
}
