/* tests/check_semantics_dma.c - the DMA-like and cube forms (DMA, DMAPAD, ND2NZ, load2d,
 * img2col, FixPipe, mmad) against hand-computed layouts
 * (docs/SEMANTICS.md; shared references in tests/support/semref.c). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/semref.h"

/* ------------------------------------------------------------------ DMA-like forms */

START_TEST(test_semantics_dma)
{
    sr_seed(20);
    const dv_op_t ops[] = {DV_OP_copy_gm_to_ubuf, DV_OP_copy_gm_to_cbuf, DV_OP_copy_ubuf_to_gm};
    const int shapes[][4] = {{1, 1, 0, 0}, {3, 2, 1, 0}, {5, 3, 0, 4}, {17, 1, 7, 2}, {2, 40, 100, 3}};
    for (int o = 0; o < 3; o++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            sr_mem_t got, want;
            sr_tmem_init(&got);
            sr_tmem_clone(&want, &got);
            const dv_op_spec_t *os = dv_op_spec(ops[o]);
            const uint64_t soff = 96 + 32 * sr_rndn(64), doff = 64 + 32 * sr_rndn(64);
            const unsigned arg = 1 + sr_rndn(3);
            const uint64_t sa = os->src_space == DV_SPACE_GM ? DV_GM_ADDR(arg, soff) : DV_ADDR(os->src_space, soff);
            const uint64_t da = os->dst_space == DV_SPACE_GM ? DV_GM_ADDR(arg, doff) : DV_ADDR(os->dst_space, doff);
            dv_insn_t in;
            dv_insn_init(&in, ops[o]);
            sr_fsetu(&in, "dst", da);
            sr_fsetu(&in, "src", sa);
            sr_fset(&in, "nburst", shapes[s][0]);
            sr_fset(&in, "len", shapes[s][1]);
            sr_fset(&in, "src_gap", shapes[s][2]);
            sr_fset(&in, "dst_gap", shapes[s][3]);
            sr_exec_ok(&in, NULL, &got);
            uint8_t *sp = os->src_space == DV_SPACE_GM ? want.gm[arg] : want.buf[os->src_space];
            uint8_t *dp = os->dst_space == DV_SPACE_GM ? want.gm[arg] : want.buf[os->dst_space];
            for (int i = 0; i < shapes[s][0]; i++)
                for (int b = 0; b < shapes[s][1] * 32; b++)
                    dp[doff + (uint64_t)i * (uint64_t)(shapes[s][1] + shapes[s][3]) * 32 + (uint64_t)b] =
                        sp[soff + (uint64_t)i * (uint64_t)(shapes[s][1] + shapes[s][2]) * 32 + (uint64_t)b];
            sr_expect_same(&got, &want, os->mnemonic);
            sr_tmem_free(&got);
            sr_tmem_free(&want);
        }
}
END_TEST

/* set_atomic: a UB -> GM copy adds (f16: rounded once), keeps the max (s32) or the min (f32) of
 * each element and what GM holds; op 0 stores again. */
START_TEST(test_semantics_dma_atomic)
{
    const struct { int op; dv_dtype_t t; } cases[] = {
        {DV_ATOMIC_ADD, DV_DT_F16}, {DV_ATOMIC_MAX, DV_DT_S32}, {DV_ATOMIC_MIN, DV_DT_F32}, {DV_ATOMIC_NONE, DV_DT_F32}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        sr_seed(30 + (unsigned)c);
        sr_mem_t got, want;
        sr_tmem_init(&got);
        sr_tmem_clone(&want, &got);
        const dv_dtype_t t = cases[c].t;
        const uint64_t sz = dv_dtype_size(t), n = 64 / sz;
        uint8_t *u = got.buf[DV_SPACE_UB], *g = got.gm[1];
        for (uint64_t i = 0; i < n; i++) { /* small values both sides so that sums stay exact in f16 */
            const int a = (int)sr_rndn(64) - 32, b = (int)sr_rndn(64) - 32;
            if (t == DV_DT_S32) {
                int32_t x = a * 1000, y = b * 1000;
                memcpy(u + i * 4, &x, 4);
                memcpy(g + 128 + i * 4, &y, 4);
            } else if (t == DV_DT_F16) {
                uint16_t x = dv_f32_to_f16((float)a / 4), y = dv_f32_to_f16((float)b / 4);
                memcpy(u + i * 2, &x, 2);
                memcpy(g + 128 + i * 2, &y, 2);
            } else {
                float x = (float)a / 3, y = (float)b / 7;
                memcpy(u + i * 4, &x, 4);
                memcpy(g + 128 + i * 4, &y, 4);
            }
        }
        sr_tmem_free(&want);
        sr_tmem_clone(&want, &got);
        for (uint64_t i = 0; i < n; i++) {
            uint8_t *w = want.gm[1] + 128 + i * sz;
            const uint8_t *x = want.buf[DV_SPACE_UB] + i * sz;
            if (t == DV_DT_S32) {
                int32_t a, b;
                memcpy(&a, x, 4);
                memcpy(&b, w, 4);
                int32_t r = a > b ? a : b;
                memcpy(w, &r, 4);
            } else if (t == DV_DT_F16) {
                uint16_t a, b;
                memcpy(&a, x, 2);
                memcpy(&b, w, 2);
                uint16_t r = dv_f32_to_f16(dv_f16_to_f32(a) + dv_f16_to_f32(b));
                memcpy(w, &r, 2);
            } else {
                float a, b;
                memcpy(&a, x, 4);
                memcpy(&b, w, 4);
                float r = cases[c].op == DV_ATOMIC_NONE ? a : a < b ? a : b;
                memcpy(w, &r, 4);
            }
        }
        dv_insn_t in;
        dv_insn_init(&in, DV_OP_copy_ubuf_to_gm);
        sr_fsetu(&in, "dst", DV_GM_ADDR(1, 128));
        sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, 0));
        sr_fset(&in, "nburst", 2);
        sr_fset(&in, "len", 1);
        dv_vstate_t vs;
        dv_vstate_reset(&vs);
        vs.atomic = (uint8_t)cases[c].op;
        vs.atomic_dtype = (uint8_t)t;
        sr_exec_ok(&in, &vs, &got);
        sr_expect_same(&got, &want, dv_dtype_name(t));
        sr_tmem_free(&got);
        sr_tmem_free(&want);
    }
}
END_TEST

/* DataCopyPad: byte lengths; GM bursts packed with byte gaps, UB bursts 32 B aligned with block
 * gaps.  Only len bytes per burst are written: the UB tail up to the burst's 32 B boundary and
 * every GM byte outside the runs keep their old values. */
START_TEST(test_semantics_dma_pad)
{
    sr_seed(21);
    const dv_op_t ops[] = {DV_OP_copy_gm_to_ubuf_align, DV_OP_copy_ubuf_to_gm_align};
    const uint64_t lens[] = {1, 31, 32, 33, 100};
    int cases = 0;
    for (int o = 0; o < 2; o++)
        for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++)
            for (uint64_t nb = 1; nb <= 3; nb++)
                for (int g = 0; g < 2; g++) {
                    const bool to_ub = ops[o] == DV_OP_copy_gm_to_ubuf_align;
                    const uint64_t len = lens[l], pad = (len + 31) / 32 * 32;
                    const uint64_t gm_gap = g ? 7 + len % 5 : 0, ub_gap = g ? 2 : 0; /* bytes / 32 B blocks */
                    const uint64_t gm_stride = len + gm_gap, ub_stride = pad + ub_gap * 32;
                    const unsigned arg = 1 + sr_rndn(3);
                    const uint64_t gm_off = 1 + sr_rndn(200), ub_off = 64 + 32 * (uint64_t)sr_rndn(64);
                    sr_mem_t got, want, orig;
                    sr_tmem_init(&got);
                    sr_tmem_clone(&want, &got);
                    sr_tmem_clone(&orig, &got);
                    dv_insn_t in;
                    dv_insn_init(&in, ops[o]);
                    sr_fsetu(&in, "dst", to_ub ? DV_ADDR(DV_SPACE_UB, ub_off) : DV_GM_ADDR(arg, gm_off));
                    sr_fsetu(&in, "src", to_ub ? DV_GM_ADDR(arg, gm_off) : DV_ADDR(DV_SPACE_UB, ub_off));
                    sr_fset(&in, "nburst", (int64_t)nb);
                    sr_fset(&in, "len", (int64_t)len);
                    sr_fset(&in, "src_gap", (int64_t)(to_ub ? gm_gap : ub_gap));
                    sr_fset(&in, "dst_gap", (int64_t)(to_ub ? ub_gap : gm_gap));
                    sr_exec_ok(&in, NULL, &got);
                    uint8_t *ub = want.buf[DV_SPACE_UB], *gm = want.gm[arg];
                    for (uint64_t i = 0; i < nb; i++)
                        for (uint64_t b = 0; b < len; b++) {
                            if (to_ub)
                                ub[ub_off + i * ub_stride + b] = gm[gm_off + i * gm_stride + b];
                            else
                                gm[gm_off + i * gm_stride + b] = ub[ub_off + i * ub_stride + b];
                        }
                    char what[96];
                    snprintf(what, sizeof what, "%s len=%llu nburst=%llu gaps=%d", dv_op_spec(ops[o])->mnemonic,
                             (unsigned long long)len, (unsigned long long)nb, g);
                    sr_expect_same(&got, &want, what);
                    /* spelled out: the padded UB tails and the GM bytes around the runs are untouched */
                    const uint8_t *gub = got.buf[DV_SPACE_UB], *oub = orig.buf[DV_SPACE_UB];
                    const uint8_t *ggm = got.gm[arg], *ogm = orig.gm[arg];
                    for (uint64_t i = 0; i < nb; i++) {
                        if (to_ub) {
                            for (uint64_t b = len; b < ub_stride; b++)
                                ck_assert_msg(gub[ub_off + i * ub_stride + b] == oub[ub_off + i * ub_stride + b],
                                              "%s: UB byte %llu of burst %llu changed", what, (unsigned long long)b,
                                              (unsigned long long)i);
                        } else {
                            for (uint64_t b = len; b < gm_stride; b++)
                                ck_assert(ggm[gm_off + i * gm_stride + b] == ogm[gm_off + i * gm_stride + b]);
                            ck_assert(ggm[gm_off - 1] == ogm[gm_off - 1]);
                        }
                    }
                    sr_tmem_free(&got);
                    sr_tmem_free(&want);
                    sr_tmem_free(&orig);
                    cases++;
                }
    ck_assert_int_eq(cases, 2 * 5 * 3 * 2);
}
END_TEST

/* DataCopyPad with padding (copy_gm_to_ubuf_align's lpad / rpad / esize): each UB burst is lpad
 * elements, the len bytes, rpad elements, then fill to its 32 B boundary; pads and fill repeat
 * MOV_PAD_VAL's low esize bytes, the bytes past the boundary (the gap) keep their old values. */
START_TEST(test_semantics_dma_padded)
{
    sr_seed(22);
    const struct { int64_t es, lp, rp, len, nb, gap; } cases[] = {
        {1, 0, 24, 8, 1, 0}, {2, 3, 5, 10, 2, 1}, {4, 8, 0, 20, 3, 0}, {4, 1, 1, 32, 2, 2}, {2, 16, 16, 2, 1, 0}};
    dv_vstate_t vs;
    dv_vstate_reset(&vs);
    vs.pad_val = 0x1122334455667788ull;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const int64_t es = cases[c].es, lpb = cases[c].lp * es, rpb = cases[c].rp * es, len = cases[c].len;
        const int64_t burst = (lpb + len + rpb + 31) / 32 * 32, stride = burst + cases[c].gap * 32;
        const uint64_t gm_off = 3 + sr_rndn(100), ub_off = 64 + 32 * (uint64_t)sr_rndn(16);
        sr_mem_t got, want;
        sr_tmem_init(&got);
        sr_tmem_clone(&want, &got);
        dv_insn_t in;
        dv_insn_init(&in, DV_OP_copy_gm_to_ubuf_align);
        sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, ub_off));
        sr_fsetu(&in, "src", DV_GM_ADDR(1, gm_off));
        sr_fset(&in, "nburst", cases[c].nb);
        sr_fset(&in, "len", len);
        sr_fset(&in, "dst_gap", cases[c].gap);
        sr_fset(&in, "lpad", cases[c].lp);
        sr_fset(&in, "rpad", cases[c].rp);
        sr_fset(&in, "esize", es);
        sr_exec_ok(&in, &vs, &got);
        uint8_t *ub = want.buf[DV_SPACE_UB];
        const uint8_t *gm = want.gm[1];
        for (int64_t i = 0; i < cases[c].nb; i++) {
            uint8_t *b = ub + ub_off + (uint64_t)(i * stride);
            for (int64_t o = 0; o < burst; o++) /* little-endian: byte o of an element is bits 8o.. */
                b[o] = (uint8_t)(vs.pad_val >> (8 * (o % es)));
            memcpy(b + lpb, gm + gm_off + (uint64_t)(i * len), (size_t)len);
        }
        char what[64];
        snprintf(what, sizeof what, "padded case %zu", c);
        sr_expect_same(&got, &want, what);
        sr_tmem_free(&got);
        sr_tmem_free(&want);
    }
    /* a pad wider than 32 bytes and esize 3 are refused */
    dv_insn_t in;
    dv_error_t err;
    dv_insn_init(&in, DV_OP_copy_gm_to_ubuf_align);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, 0));
    sr_fsetu(&in, "src", DV_GM_ADDR(1, 0));
    sr_fset(&in, "len", 8);
    sr_fset(&in, "lpad", 9);
    sr_fset(&in, "esize", 4);
    ck_assert_int_ne(dv_insn_check(&in, &err), DV_OK);
    ck_assert_ptr_nonnull(strstr(err.msg, "must each fit 32 bytes"));
    sr_fset(&in, "lpad", 0);
    sr_fset(&in, "esize", 3);
    ck_assert_int_ne(dv_insn_check(&in, &err), DV_OK);
}
END_TEST

START_TEST(test_semantics_nd2nz)
{
    sr_seed(21);
    const int dts[] = {DV_DT_F16, DV_DT_BF16, DV_DT_F32, DV_DT_S8};
    /* nd_num, n_value, d_value, src_nd_stride, src_d_stride, dst_c0_stride, dst_n_stride, dst_nd_stride */
    const int shapes[][8] = {{1, 16, 16, 0, 16, 16, 1, 0},   {2, 5, 20, 300, 24, 8, 1, 40},
                             {3, 17, 33, 700, 40, 20, 1, 80}, {1, 1, 1, 0, 1, 1, 1, 0},
                             {2, 9, 50, 500, 50, 3, 4, 120}};
    for (int d = 0; d < 4; d++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            sr_mem_t got, want;
            sr_tmem_init(&got);
            sr_tmem_clone(&want, &got);
            const int *p = shapes[s];
            const uint64_t size = sr_sz(dts[d]), C0 = 32 / size, soff = 1000, doff = 4096;
            dv_insn_t in;
            dv_insn_init(&in, DV_OP_copy_gm_to_cbuf_nd2nz);
            sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_L1, doff));
            sr_fsetu(&in, "src", DV_GM_ADDR(2, soff));
            sr_fset(&in, "dtype", dts[d]);
            sr_fset(&in, "nd_num", p[0]);
            sr_fset(&in, "n_value", p[1]);
            sr_fset(&in, "d_value", p[2]);
            sr_fset(&in, "src_nd_stride", p[3]);
            sr_fset(&in, "src_d_stride", p[4]);
            sr_fset(&in, "dst_c0_stride", p[5]);
            sr_fset(&in, "dst_n_stride", p[6]);
            sr_fset(&in, "dst_nd_stride", p[7]);
            sr_exec_ok(&in, NULL, &got);
            const uint64_t cols = (uint64_t)(p[2] + (int)C0 - 1) / C0 * C0;
            for (uint64_t j = 0; j < (uint64_t)p[0]; j++)
                for (uint64_t i = 0; i < (uint64_t)p[1]; i++)
                    for (uint64_t c = 0; c < cols; c++) {
                        uint8_t *dst = want.buf[DV_SPACE_L1] + doff + j * (uint64_t)p[7] * 32 + (c / C0) * (uint64_t)p[5] * 32 +
                                       i * (uint64_t)p[6] * 32 + (c % C0) * size;
                        if (c < (uint64_t)p[2])
                            memcpy(dst, want.gm[2] + soff + (j * (uint64_t)p[3] + i * (uint64_t)p[4] + c) * size, size);
                        else
                            memset(dst, 0, size);
                    }
            char what[64];
            snprintf(what, sizeof what, "nd2nz %s shape %zu", dv_dtype_name((dv_dtype_t)dts[d]), s);
            sr_expect_same(&got, &want, what);
            sr_tmem_free(&got);
            sr_tmem_free(&want);
        }
}
END_TEST

START_TEST(test_semantics_load2d)
{
    sr_seed(22);
    const dv_op_t ops[] = {DV_OP_load_cbuf_to_ca, DV_OP_load_cbuf_to_cb, DV_OP_load_gm_to_ca, DV_OP_load_gm_to_cb};
    const int dts[] = {DV_DT_F16, DV_DT_BF16, DV_DT_F32, DV_DT_S8};
    const int shapes[][4] = {{0, 1, 1, 0}, {3, 5, 2, 1}, {1, 255, 1, 0}, {7, 4, 0, 3}}; /* base, repeat, stride, gap */
    for (int o = 0; o < 4; o++)
        for (int d = 0; d < 4; d++)
            for (int tr = 0; tr < (sr_sz(dts[d]) == 2 ? 2 : 1); tr++)
                for (int s = 0; s < 4; s++) {
                    sr_mem_t got, want;
                    sr_tmem_init(&got);
                    sr_tmem_clone(&want, &got);
                    const dv_op_spec_t *os = dv_op_spec(ops[o]);
                    const int *p = shapes[s];
                    const uint64_t soff = 512, doff = 1024;
                    dv_insn_t in;
                    dv_insn_init(&in, ops[o]);
                    sr_fsetu(&in, "dst", DV_ADDR(os->dst_space, doff));
                    sr_fsetu(&in, "src",
                             os->src_space == DV_SPACE_GM ? DV_GM_ADDR(0, soff) : DV_ADDR(os->src_space, soff));
                    sr_fset(&in, "dtype", dts[d]);
                    sr_fset(&in, "base_idx", p[0]);
                    sr_fset(&in, "repeat", p[1]);
                    sr_fset(&in, "src_stride", p[2]);
                    sr_fset(&in, "dst_gap", p[3]);
                    sr_fset(&in, "transpose", tr);
                    sr_exec_ok(&in, NULL, &got);
                    const uint8_t *sp = os->src_space == DV_SPACE_GM ? want.gm[0] : want.buf[os->src_space];
                    uint8_t *dp = want.buf[os->dst_space];
                    for (uint64_t i = 0; i < (uint64_t)p[1]; i++) {
                        const uint8_t *sf = sp + soff + ((uint64_t)p[0] + i * (uint64_t)p[2]) * 512;
                        uint8_t *df = dp + doff + i * (uint64_t)(p[3] + 1) * 512;
                        for (int r = 0; r < 16; r++)
                            for (int c = 0; c < 16; c++) /* 16 x 32 B rows; transpose swaps 2-byte (r, c) */
                                memcpy(df + r * 32 + c * 2, tr ? sf + c * 32 + r * 2 : sf + r * 32 + c * 2, 2);
                    }
                    sr_expect_same(&got, &want, os->mnemonic);
                    sr_tmem_free(&got);
                    sr_tmem_free(&want);
                }
}
END_TEST

/* The layouts of asc-devkit's load3d.py (examples/.../load_data_l12l0/scripts): ZZ into L0A;
 * transposed into L0A (16-bit: fractals [k1][m1], each [c0][m0]; 32-bit: 1 KB blocks [k16][m16] of two
 * 16 x 8 halves by row); always transposed into L0B (16-bit: [m1][k1] fractals of [c0][m0]; 32-bit:
 * per group of 8 rows every column's 8 values).  A window position outside the map reads pad_value. */
START_TEST(test_semantics_img2col)
{
    sr_seed(23);
    /* H W C1 kh kw sh sw pt pb pl pr dh dw m_start m_ext k_start k_ext */
    const int shapes[][17] = {
        {8, 8, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 0, 64, 0, 144},   /* same padding */
        {9, 7, 2, 3, 2, 2, 1, 0, 1, 2, 0, 1, 2, 5, 20, 32, 96},   /* stride, dilation, offsets */
        {6, 6, 3, 2, 2, 2, 2, 1, 0, 0, 1, 2, 1, 0, 30, 16, 208},  /* rows past Ho*Wo, cols past K */
        {5, 11, 1, 1, 1, 1, 3, 0, 0, 4, 4, 1, 1, 3, 7, 0, 16},    /* 1x1 kernel, wide pad */
        {4, 4, 2, 5, 5, 1, 1, 2, 2, 2, 2, 1, 1, 0, 16, 400, 240}, /* k window at the end */
    };
    /* variant: dtype, into L0B, transpose, pad value */
    const struct { dv_dtype_t t; int l0b, trans; uint32_t pad, bound; } vs[] = {
        {DV_DT_F16, 0, 0, 0, 0},      {DV_DT_BF16, 0, 0, 0, 0},         {DV_DT_F16, 0, 1, 0x3c00, 0},
        {DV_DT_F16, 1, 0, 0xbc00, 0}, {DV_DT_F32, 0, 0, 0, 0},          {DV_DT_F32, 0, 1, 0x3f800000, 0},
        {DV_DT_F32, 1, 1, 7, 0},      {DV_DT_F16, 0, 0, 0, 2048 + 480}, /* reads past L1 byte 2528 wrap to 0 */
    };
    for (size_t d = 0; d < sizeof vs / sizeof vs[0]; d++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            const int *p = shapes[s];
            sr_mem_t got, want;
            sr_tmem_init(&got);
            sr_tmem_clone(&want, &got);
            const uint64_t soff = 2048, doff = 512;
            const dv_space_t ds = vs[d].l0b ? DV_SPACE_L0B : DV_SPACE_L0A;
            static const char *names[] = {"fmap_h", "fmap_w", "c1", "kh", "kw", "stride_h", "stride_w", "pad_t", "pad_b",
                                          "pad_l", "pad_r", "dil_h", "dil_w", "m_start", "m_ext", "k_start", "k_ext"};
            dv_insn_t in;
            dv_insn_init(&in, vs[d].l0b ? DV_OP_img2col_cbuf_to_cb : DV_OP_img2col_cbuf_to_ca);
            sr_fsetu(&in, "dst", DV_ADDR(ds, doff));
            sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_L1, soff));
            sr_fset(&in, "dtype", vs[d].t);
            sr_fset(&in, "transpose", vs[d].trans);
            sr_fset(&in, "pad_value", vs[d].pad);
            sr_fset(&in, "boundary", vs[d].bound);
            for (int i = 0; i < 17; i++)
                sr_fset(&in, names[i], p[i]);
            sr_exec_ok(&in, NULL, &got);
            const int e = (int)dv_dtype_size(vs[d].t), C0 = 32 / e;
            const int H = p[0], W = p[1], C1 = p[2], kh = p[3], kw = p[4];
            const int Ho = (H + p[7] + p[8] - p[11] * (kh - 1) - 1) / p[5] + 1;
            const int Wo = (W + p[9] + p[10] - p[12] * (kw - 1) - 1) / p[6] + 1;
            const int Ktot = C1 * kh * kw * C0, mext = p[14], kext = p[16], M1 = (mext + 15) / 16, K1 = kext / C0;
            const int KB = (kext + 15) / 16;
            const uint8_t *l1 = want.buf[DV_SPACE_L1];
            for (int ml = 0; ml < M1 * 16; ml++)
                for (int kl = 0; kl < kext; kl++) {
                    const int m = p[13] + ml, k = p[15] + kl;
                    uint32_t v = 0;
                    if (ml < mext && m < Ho * Wo && k < Ktot) {
                        const int c0 = k % C0, kwi = (k / C0) % kw, khi = (k / C0 / kw) % kh, c1 = k / C0 / kw / kh;
                        const int ih = (m / Wo) * p[5] - p[7] + khi * p[11], iw = (m % Wo) * p[6] - p[9] + kwi * p[12];
                        size_t a = soff + (((size_t)c1 * (size_t)H + (size_t)ih) * (size_t)W + (size_t)iw) * 32;
                        if (vs[d].bound && a >= vs[d].bound)
                            a %= vs[d].bound;
                        if (ih >= 0 && ih < H && iw >= 0 && iw < W)
                            memcpy(&v, l1 + a + (size_t)c0 * (size_t)e, (size_t)e);
                        else
                            v = vs[d].pad;
                    }
                    size_t off;
                    if (!vs[d].trans && !vs[d].l0b)
                        off = (size_t)(((ml / 16) * K1 + kl / C0) * 512 + ((ml % 16) * C0 + kl % C0) * e);
                    else if (!vs[d].l0b && e == 2)
                        off = (size_t)(((kl / 16) * M1 + ml / 16) * 512 + ((kl % 16) * 16 + ml % 16) * 2);
                    else if (!vs[d].l0b)
                        off = (size_t)(((kl / 16) * M1 + ml / 16) * 1024 + ((ml % 16) / 8) * 512 +
                                       ((kl % 16) * 8 + ml % 8) * 4);
                    else if (e == 2)
                        off = (size_t)(((ml / 16) * KB + kl / 16) * 512 + ((kl % 16) * 16 + ml % 16) * 2);
                    else
                        off = (size_t)((ml / 8) * KB * 16 * 32 + kl * 32 + (ml % 8) * 4);
                    memcpy(want.buf[ds] + doff + off, &v, (size_t)e);
                }
            char what[48];
            snprintf(what, sizeof what, "img2col variant %zu shape %zu", d, s);
            sr_expect_same(&got, &want, what);
            sr_tmem_free(&got);
            sr_tmem_free(&want);
        }
}
END_TEST

/* Reference layouts of the cube buffers. */
static uint64_t zz_off(int r, int c, int K, int size)
{
    const int K0 = 32 / size, K1 = (K + K0 - 1) / K0;
    return ((uint64_t)(r / 16) * (uint64_t)K1 + (uint64_t)(c / K0)) * 512 + (uint64_t)((r % 16) * K0 + c % K0) * (uint64_t)size;
}
static uint64_t zn_off(int k, int n, int N, int size)
{
    const int K0 = 32 / size, N1 = (N + 15) / 16;
    return ((uint64_t)(k / K0) * (uint64_t)N1 + (uint64_t)(n / 16)) * 512 + (uint64_t)((n % 16) * K0 + k % K0) * (uint64_t)size;
}
static uint64_t nz_off(int m, int n, int M)
{
    const int M1 = (M + 15) / 16;
    return ((uint64_t)(n / 16) * (uint64_t)M1 + (uint64_t)(m / 16)) * 1024 + (uint64_t)((m % 16) * 16 + n % 16) * 4;
}

/* Cube operands: moderate exponents so sums stay finite but rounding order still shows. */
static uint64_t gen_mm(int dt)
{
    if (dt == DV_DT_F32)
        return (sr_rnd() & 0x80000000u) | (118u + sr_rndn(16)) << 23 | (sr_rnd() & 0x7fffff);
    return sr_gen_elem(dt, D_NORMAL, false);
}

START_TEST(test_semantics_mmad)
{
    sr_seed(24);
    const int dts[] = {DV_DT_F16, DV_DT_BF16, DV_DT_F32, DV_DT_S8};
    /* N a multiple of 16 (48, 64, 80) is summed in C's fractals in place, other N through a copy: both
     * ways, with M below, at and past a multiple of 4 and 16 */
    const int shapes[][3] = {{1, 1, 1}, {20, 40, 30}, {33, 70, 17}, {16, 16, 16}, {5, 100, 48}, {37, 64, 80}, {9, 33, 64}};
    for (int d = 0; d < 4; d++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
            for (int init = 2; init >= 0; init--) { /* 2: mmad_bias (C starts from the BiasTable) */
                const int dt = dts[d], M = shapes[s][0], K = shapes[s][1], N = shapes[s][2], size = (int)sr_sz(dt);
                sr_mem_t got, want;
                sr_tmem_init(&got);
                /* operands: finite values; C: finite f32 (or any s32) */
                for (uint64_t i = 0; i < L0_SIZE; i += (uint64_t)size) {
                    sr_rst_bits(dt, got.buf[DV_SPACE_L0A] + i, gen_mm(dt));
                    sr_rst_bits(dt, got.buf[DV_SPACE_L0B] + i, gen_mm(dt));
                }
                for (uint64_t i = 0; i < L0C_SIZE; i += 4)
                    sr_rst_bits(DV_DT_F32, got.buf[DV_SPACE_L0C] + i,
                             dt == DV_DT_S8 ? sr_rnd() : sr_fbits((float)((int)sr_rndn(2001) - 1000) / 8));
                for (uint64_t i = 0; i < BT_SIZE; i += 4)
                    sr_rst_bits(DV_DT_F32, got.buf[DV_SPACE_BT] + i,
                             dt == DV_DT_S8 ? sr_rnd() : sr_fbits((float)((int)sr_rndn(2001) - 1000) / 8));
                sr_tmem_clone(&want, &got);
                const uint64_t ao = 1024, bo = 2048, co = 4096, bto = 64;
                dv_insn_t in;
                dv_insn_init(&in, init == 2 ? DV_OP_mmad_bias : DV_OP_mmad);
                sr_fsetu(&in, "c", DV_ADDR(DV_SPACE_L0C, co));
                sr_fsetu(&in, "a", DV_ADDR(DV_SPACE_L0A, ao));
                sr_fsetu(&in, "b", DV_ADDR(DV_SPACE_L0B, bo));
                sr_fset(&in, "dtype", dt);
                sr_fset(&in, "m", M);
                sr_fset(&in, "k", K);
                sr_fset(&in, "n", N);
                if (init == 2)
                    sr_fsetu(&in, "bias", DV_ADDR(DV_SPACE_BT, bto));
                else
                    sr_fset(&in, "init", init);
                sr_exec_ok(&in, NULL, &got);
                const uint8_t *A = want.buf[DV_SPACE_L0A] + ao, *B = want.buf[DV_SPACE_L0B] + bo;
                const uint8_t *BIAS = want.buf[DV_SPACE_BT] + bto;
                uint8_t *C = want.buf[DV_SPACE_L0C] + co;
                for (int m = 0; m < M; m++)
                    for (int n = 0; n < N; n++) {
                        uint8_t *cp = C + nz_off(m, n, M);
                        const uint8_t *from = init == 2 ? BIAS + 4 * n : cp; /* where the accumulator starts */
                        if (dt == DV_DT_S8) {
                            int64_t acc = init == 1 ? 0 : (int64_t)sr_rld(DV_DT_S32, from);
                            for (int k = 0; k < K; k++)
                                acc += (int64_t)sr_rld(dt, A + zz_off(m, k, K, size)) *
                                       (int64_t)sr_rld(dt, B + zn_off(k, n, N, size));
                            sr_rst_i(DV_DT_S32, cp, acc);
                        } else {
                            float acc = init == 1 ? 0.0f : (float)sr_rld(DV_DT_F32, from);
                            for (int k = 0; k < K; k++) {
                                const float p = (float)sr_rld(dt, A + zz_off(m, k, K, size)) *
                                                (float)sr_rld(dt, B + zn_off(k, n, N, size));
                                acc = acc + p;
                            }
                            sr_rst_f(DV_DT_F32, cp, acc);
                        }
                    }
                char what[64];
                snprintf(what, sizeof what, "mmad %s %dx%dx%d init %d", dv_dtype_name((dv_dtype_t)dt), M, K, N, init);
                sr_expect_same(&got, &want, what);
                sr_tmem_free(&got);
                sr_tmem_free(&want);
            }
}
END_TEST

START_TEST(test_semantics_fixpipe)
{
    sr_seed(25);
    const dv_op_t ops[] = {DV_OP_copy_matrix_cc_to_gm, DV_OP_copy_matrix_cc_to_cbuf, DV_OP_copy_matrix_cc_to_ubuf};
    const int shapes[][4] = {{20, 40, 32, 48}, {16, 16, 16, 16}, {3, 50, 7, 64}, {1, 1, 1, 1}}; /* m n src_stride dst_stride */
    for (int o = 0; o < 3; o++)
        for (int q = 0; q < 3; q++)
            for (int relu = 0; relu < 2; relu++)
                for (int nd = 0; nd < 2; nd++)
                    for (int s = 0; s < 4; s++) {
                        const int *p = shapes[s];
                        sr_mem_t got, want;
                        sr_tmem_init(&got);
                        for (uint64_t i = 0; i < L0C_SIZE; i += 4)
                            sr_rst_bits(DV_DT_F32, got.buf[DV_SPACE_L0C] + i,
                                     sr_rndn(8) ? sr_gen_elem(DV_DT_F32, D_CONV, false) : 0x80000000u); /* -0 */
                        sr_tmem_clone(&want, &got);
                        const dv_op_spec_t *os = dv_op_spec(ops[o]);
                        const uint64_t so = 1024, doff = 96;
                        dv_insn_t in;
                        dv_insn_init(&in, ops[o]);
                        sr_fsetu(&in, "dst",
                                 os->dst_space == DV_SPACE_GM ? DV_GM_ADDR(3, doff) : DV_ADDR(os->dst_space, doff));
                        sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_L0C, so));
                        sr_fset(&in, "m_size", p[0]);
                        sr_fset(&in, "n_size", p[1]);
                        sr_fset(&in, "src_stride", p[2] > p[0] ? p[2] : p[0]);
                        sr_fset(&in, "dst_stride", p[3]);
                        sr_fset(&in, "quant", q);
                        sr_fset(&in, "relu", relu);
                        sr_fset(&in, "nz2nd", nd);
                        sr_exec_ok(&in, NULL, &got);
                        const int ot = q == DV_QUANT_F16 ? DV_DT_F16 : q == DV_QUANT_BF16 ? DV_DT_BF16 : DV_DT_F32;
                        const uint64_t osz = sr_sz(ot), ss = (uint64_t)(p[2] > p[0] ? p[2] : p[0]), ds = (uint64_t)p[3];
                        uint8_t *dp = (os->dst_space == DV_SPACE_GM ? want.gm[3] : want.buf[os->dst_space]) + doff;
                        for (uint64_t m = 0; m < (uint64_t)p[0]; m++)
                            for (uint64_t n = 0; n < (uint64_t)p[1]; n++) {
                                const uint8_t *sp = want.buf[DV_SPACE_L0C] + so + (((n / 16) * ss + m) * 16 + n % 16) * 4;
                                uint8_t *d = dp + (nd ? (m * ds + n) * osz : (((n / 16) * ds + m) * 16 + n % 16) * osz);
                                float x;
                                memcpy(&x, sp, 4);
                                if (relu && !(x > 0))
                                    x = 0.0f;
                                sr_rst_f(ot, d, x);
                            }
                        char what[96];
                        snprintf(what, sizeof what, "%s quant %d relu %d nz2nd %d shape %d", os->mnemonic, q, relu, nd, s);
                        sr_expect_same(&got, &want, what);
                        sr_tmem_free(&got);
                        sr_tmem_free(&want);
                    }
}
END_TEST

/* The layouts compose: ZZ A x ZN B through mmad and an ND fixpipe is the plain matrix product. */
START_TEST(test_semantics_matmul_end_to_end)
{
    sr_seed(26);
    sr_mem_t t;
    sr_tmem_init(&t);
    const int M = 37, K = 50, N = 29;
    static int a[37][50], b[50][29];
    for (int m = 0; m < M; m++)
        for (int k = 0; k < K; k++) {
            a[m][k] = (int)sr_rndn(9) - 4;
            const uint16_t h = sr_d2h(a[m][k]);
            memcpy(t.buf[DV_SPACE_L0A] + zz_off(m, k, K, 2), &h, 2);
        }
    for (int k = 0; k < K; k++)
        for (int n = 0; n < N; n++) {
            b[k][n] = (int)sr_rndn(9) - 4;
            const uint16_t h = sr_d2h(b[k][n]);
            memcpy(t.buf[DV_SPACE_L0B] + zn_off(k, n, N, 2), &h, 2);
        }
    dv_insn_t in;
    dv_insn_init(&in, DV_OP_mmad);
    sr_fsetu(&in, "c", DV_ADDR(DV_SPACE_L0C, 0));
    sr_fsetu(&in, "a", DV_ADDR(DV_SPACE_L0A, 0));
    sr_fsetu(&in, "b", DV_ADDR(DV_SPACE_L0B, 0));
    sr_fset(&in, "dtype", DV_DT_F16);
    sr_fset(&in, "m", M);
    sr_fset(&in, "k", K);
    sr_fset(&in, "n", N);
    sr_exec_ok(&in, NULL, &t);
    dv_insn_init(&in, DV_OP_copy_matrix_cc_to_gm);
    sr_fsetu(&in, "dst", DV_GM_ADDR(1, 0));
    sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_L0C, 0));
    sr_fset(&in, "m_size", M);
    sr_fset(&in, "n_size", N);
    sr_fset(&in, "src_stride", (M + 15) / 16 * 16);
    sr_fset(&in, "dst_stride", N);
    sr_exec_ok(&in, NULL, &t);
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            int want = 0;
            for (int k = 0; k < K; k++)
                want += a[m][k] * b[k][n];
            float got;
            memcpy(&got, t.gm[1] + ((size_t)m * (size_t)N + (size_t)n) * 4, 4);
            ck_assert_msg(got == (float)want, "C[%d][%d] = %g, want %d", m, n, (double)got, want);
        }
    sr_tmem_free(&t);
}
END_TEST

Suite *dv_semantics_dma_suite(void)
{
    Suite *s = suite_create("semantics_dma");
    TCase *tc = sr_tcase(s, "transfer");
    tcase_add_test(tc, test_semantics_dma);
    tcase_add_test(tc, test_semantics_dma_pad);
    tcase_add_test(tc, test_semantics_dma_padded);
    tcase_add_test(tc, test_semantics_dma_atomic);
    tcase_add_test(tc, test_semantics_nd2nz);
    tcase_add_test(tc, test_semantics_load2d);
    tcase_add_test(tc, test_semantics_img2col);
    tcase_add_test(tc, test_semantics_fixpipe);
    tc = sr_tcase(s, "cube");
    tcase_add_test(tc, test_semantics_mmad);
    tcase_add_test(tc, test_semantics_matmul_end_to_end);
    return s;
}
