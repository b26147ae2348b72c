/* tools/gentrace.c - writes the sample traces of traces/ (their committed text is this program's
 * output) and long vector-add traces for the benchmark.  Plain C, no project headers, so it
 * builds with `cc -O2 tools/gentrace.c -o build/gentrace`.
 *
 *   gentrace vadd_double_buffer | matmul_tile | conv_tile_310 | missing_wait | matmul_relu_mix
 *                                                                              > traces/NAME.trace
 *   gentrace --vadd-long BLOCKS TILES                                          > long.trace
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banner.h"

/* Vector add: f16 tiles of TILE_ELEMS elements, 128 f16 per 256-byte repeat. */
enum { TILE_ELEMS = 8192, ELEM_BYTES = 2, TILE_BYTES = TILE_ELEMS * ELEM_BYTES, REPEAT_ELEMS = 128,
       MAX_REPEAT = 128 };

/* The command that regenerates the trace and gentrace's arguments, for its banner (line 3). */
static const char *banner_command = "make traces";
static char banner_args[64];

static void header(const char *name, const char *kind, unsigned blocks, const char *what)
{
    printf("dvtrace 1\n");
    printf("# %s\n" DV_BANNER_HASH("%s", "tools/gentrace.c", "gentrace %s") "\n", what, banner_command,
           banner_args[0] ? banner_args : name);
    printf("kernel %s kind=%s blocks=%u\n", name, kind, blocks);
}

/* dst = src0 + src1 over `elems` f16 elements in UB, in instructions of at most MAX_REPEAT repeats. */
static void vadd_ub(unsigned dst, unsigned src0, unsigned src1, unsigned elems)
{
    unsigned repeats = elems / REPEAT_ELEMS;
    for (unsigned done = 0; done < repeats;) {
        unsigned n = repeats - done < MAX_REPEAT ? repeats - done : MAX_REPEAT;
        unsigned off = done * REPEAT_ELEMS * ELEM_BYTES;
        printf("vadd dst=ub:0x%x src0=ub:0x%x src1=ub:0x%x dtype=f16 repeat=%u\n", dst + off, src0 + off, src1 + off, n);
        done += n;
    }
}

/* z = x + y, each block `tiles` tiles, two UB buffers per operand (ping-pong).  Per buffer b:
 *   MTE2 -> V   id b  inputs of buffer b loaded          (every tile)
 *   V -> MTE3   id b  result of buffer b computed        (every tile)
 *   V -> MTE2   id b  inputs of buffer b consumed: MTE2 may reload it      (tiles with a successor)
 *   MTE3 -> V   id b  result of buffer b stored: V may overwrite it        (tiles with a successor)
 * Each set_flag is consumed by exactly one wait_flag. */
static void vadd_double_buffer(unsigned blocks, unsigned tiles, int comments)
{
    const unsigned x[2] = {0x0, TILE_BYTES}, y[2] = {2 * TILE_BYTES, 3 * TILE_BYTES},
                   z[2] = {4 * TILE_BYTES, 5 * TILE_BYTES};
    unsigned long long bytes = (unsigned long long)blocks * tiles * TILE_BYTES;
    printf("arg x bytes=%llu dtype=f16 dir=in init=random:1\n", bytes);
    printf("arg y bytes=%llu dtype=f16 dir=in init=random:2\n", bytes);
    printf("arg z bytes=%llu dtype=f16 dir=out init=zero\n", bytes);
    for (unsigned blk = 0; blk < blocks; blk++) {
        printf("block %u\n", blk);
        for (unsigned t = 0; t < tiles; t++) {
            unsigned b = t % 2;
            unsigned long long gm = ((unsigned long long)blk * tiles + t) * TILE_BYTES;
            int reused = t >= 2, reuse_next = t + 2 < tiles;
            if (comments)
                printf("# tile %u: buffer %u, elements %llu..%llu\n", t, b, gm / ELEM_BYTES,
                       (gm + TILE_BYTES) / ELEM_BYTES - 1);
            printf("scalar cycles=4\n");
            if (reused)
                printf("wait_flag src=V dst=MTE2 id=%u\n", b);
            printf("copy_gm_to_ubuf dst=ub:0x%x src=x+0x%llx nburst=1 len=%u\n", x[b], gm, TILE_BYTES / 32);
            printf("copy_gm_to_ubuf dst=ub:0x%x src=y+0x%llx nburst=1 len=%u\n", y[b], gm, TILE_BYTES / 32);
            printf("set_flag src=MTE2 dst=V id=%u\n", b);
            printf("wait_flag src=MTE2 dst=V id=%u\n", b);
            if (reused)
                printf("wait_flag src=MTE3 dst=V id=%u\n", b);
            vadd_ub(z[b], x[b], y[b], TILE_ELEMS);
            if (reuse_next)
                printf("set_flag src=V dst=MTE2 id=%u\n", b);
            printf("set_flag src=V dst=MTE3 id=%u\n", b);
            printf("wait_flag src=V dst=MTE3 id=%u\n", b);
            printf("copy_ubuf_to_gm dst=z+0x%llx src=ub:0x%x nburst=1 len=%u\n", gm, z[b], TILE_BYTES / 32);
            if (reuse_next)
                printf("set_flag src=MTE3 dst=V id=%u\n", b);
        }
    }
    printf("end\n");
}

/* One tile of z = x + y whose MTE2 -> V set_flag / wait_flag pair was left out: vadd reads UB
 * that MTE2 may still be writing (two RAW hazards, one per input). */
static void missing_wait(void)
{
    header("missing_wait", "vector", 1, "z = x + y on one tile with the MTE2 -> V sync left out (a RAW hazard)");
    printf("arg x bytes=%u dtype=f16 dir=in init=random:1\n", TILE_BYTES);
    printf("arg y bytes=%u dtype=f16 dir=in init=random:2\n", TILE_BYTES);
    printf("arg z bytes=%u dtype=f16 dir=out init=zero\n", TILE_BYTES);
    printf("block 0\n");
    printf("copy_gm_to_ubuf dst=ub:0x0 src=x+0x0 nburst=1 len=%u\n", TILE_BYTES / 32);
    printf("copy_gm_to_ubuf dst=ub:0x%x src=y+0x0 nburst=1 len=%u\n", TILE_BYTES, TILE_BYTES / 32);
    printf("# missing here: set_flag src=MTE2 dst=V id=0 / wait_flag src=MTE2 dst=V id=0\n");
    vadd_ub(2 * TILE_BYTES, 0x0, TILE_BYTES, TILE_ELEMS);
    printf("set_flag src=V dst=MTE3 id=0\n");
    printf("wait_flag src=V dst=MTE3 id=0\n");
    printf("copy_ubuf_to_gm dst=z+0x0 src=ub:0x%x nburst=1 len=%u\n", 2 * TILE_BYTES, TILE_BYTES / 32);
    printf("end\n");
}

/* One AIC stream: C[64x64] f32 = A[64x64] f16 (argument a at a_off) x B[64x64] f16 (argument b),
 * GM -> L1 (ND to NZ) -> L0A/L0B -> cube -> FixPipe -> GM argument `c` at c_off (ND).
 * L1 holds A and B in NZ (16-column blocks of 64 rows: fractal (r1, c1) at index c1*4 + r1).
 * L0A wants ZZ (fractal (r1, c1) at r1*4 + c1): one load per row of fractals, src_stride 4.
 * L0B wants ZN: the same reordering per K row of fractals, each fractal transposed. */
static void matmul_aic(unsigned a_off, const char *c, unsigned c_off, int comments)
{
    enum { M = 64, K = 64, N = 64, FR = 512, F1 = 4 /* fractals per 64 */ };
    if (comments)
        printf("# MTE2: A and B, ND -> NZ into L1 (column blocks of 16 f16 = 32 B, %u rows each)\n", M);
    printf("copy_gm_to_cbuf_nd2nz dst=l1:0x0 src=a+0x%x dtype=f16 nd_num=1 n_value=%u d_value=%u src_d_stride=%u "
           "dst_c0_stride=%u dst_n_stride=1\n", a_off, M, K, K, M);
    printf("copy_gm_to_cbuf_nd2nz dst=l1:0x%x src=b+0x0 dtype=f16 nd_num=1 n_value=%u d_value=%u src_d_stride=%u "
           "dst_c0_stride=%u dst_n_stride=1\n", M * K * 2, K, N, N, K);
    printf("set_flag src=MTE2 dst=MTE1 id=0\n");
    printf("wait_flag src=MTE2 dst=MTE1 id=0\n");
    if (comments)
        printf("# MTE1: L1 -> L0A (ZZ) and L0B (ZN), one row of 4 fractals per instruction\n");
    for (unsigned r1 = 0; r1 < F1; r1++)
        printf("load_cbuf_to_ca dst=l0a:0x%x src=l1:0x0 dtype=f16 base_idx=%u repeat=%u src_stride=%u\n",
               r1 * F1 * FR, r1, F1, F1);
    for (unsigned k1 = 0; k1 < F1; k1++)
        printf("load_cbuf_to_cb dst=l0b:0x%x src=l1:0x%x dtype=f16 base_idx=%u repeat=%u src_stride=%u transpose=1\n",
               k1 * F1 * FR, M * K * 2, k1, F1, F1);
    printf("set_flag src=MTE1 dst=M id=0\n");
    printf("wait_flag src=MTE1 dst=M id=0\n");
    printf("mmad c=l0c:0x0 a=l0a:0x0 b=l0b:0x0 dtype=f16 m=%u k=%u n=%u init=1\n", M, K, N);
    printf("set_flag src=M dst=FIX id=0\n");
    printf("wait_flag src=M dst=FIX id=0\n");
    if (comments)
        printf("# FIX: L0C (NZ, f32) -> GM (ND, f32)\n");
    printf("copy_matrix_cc_to_gm dst=%s+0x%x src=l0c:0x0 n_size=%u m_size=%u src_stride=%u dst_stride=%u quant=none "
           "relu=0 nz2nd=1\n", c, c_off, N, M, M, N);
}

/* C[64x64] f32 = A[64x64] f16 x B[64x64] f16 on one AIC. */
static void matmul_tile(void)
{
    enum { M = 64, K = 64, N = 64 };
    header("matmul_tile", "cube", 1, "C[64x64] f32 = A[64x64] f16 x B[64x64] f16: GM -> L1 (NZ) -> L0A/L0B -> cube -> GM");
    printf("arg a bytes=%u dtype=f16 dir=in init=random:1\n", M * K * 2);
    printf("arg b bytes=%u dtype=f16 dir=in init=random:2\n", K * N * 2);
    printf("arg c bytes=%u dtype=f32 dir=out init=zero\n", M * N * 4);
    printf("block 0\n");
    matmul_aic(0, "c", 0, 1);
    printf("end\n");
}

/* A 3x3 convolution tile on a coupled Ascend 310 core: fmap 1x16x8x8 f16 (NC1HWC0, C1 = 1),
 * 16 output channels, stride 1, pad 1 -> 64 output positions.  Weights are stored in GM already in
 * the fractal layout L0B wants (as the offline model converter does).  The f32 result goes
 * L0C -> UB through the vector unit with f16 quantisation and ReLU, then UB -> GM (NC1HWC0). */
static void conv_tile_310(void)
{
    enum { H = 8, W = 8, C0 = 16, KH = 3, KW = 3, COUT = 16, M = H * W, K = KH * KW * C0, FR = 512 };
    header("conv_tile_310", "cube", 1,
           "3x3 conv, 16 -> 16 channels on an 8x8 f16 map (pad 1): img2col + mmad, L0C -> UB via V (quant f16, ReLU)");
    printf("arg fmap bytes=%u dtype=f16 dir=in init=random:1\n", H * W * C0 * 2);
    printf("arg weight bytes=%u dtype=f16 dir=in init=random:2\n", K * COUT * 2);
    printf("arg out bytes=%u dtype=f16 dir=out init=zero\n", M * COUT * 2);
    printf("block 0\n");
    printf("# MTE2: feature map and weights into L1\n");
    printf("copy_gm_to_cbuf dst=l1:0x0 src=fmap+0x0 nburst=1 len=%u\n", H * W * C0 * 2 / 32);
    printf("copy_gm_to_cbuf dst=l1:0x%x src=weight+0x0 nburst=1 len=%u\n", 0x1000, K * COUT * 2 / 32);
    printf("set_flag src=MTE2 dst=MTE1 id=0\n");
    printf("wait_flag src=MTE2 dst=MTE1 id=0\n");
    printf("# MTE1: im2col rows (output positions) x columns (c1, kh, kw, c0) into L0A; weights into L0B\n");
    printf("img2col_cbuf_to_ca dst=l0a:0x0 src=l1:0x0 dtype=f16 fmap_h=%u fmap_w=%u c1=1 kh=%u kw=%u stride_h=1 "
           "stride_w=1 pad_t=1 pad_b=1 pad_l=1 pad_r=1 m_start=0 m_ext=%u k_start=0 k_ext=%u\n", H, W, KH, KW, M, K);
    printf("load_cbuf_to_cb dst=l0b:0x0 src=l1:0x%x dtype=f16 base_idx=0 repeat=%u src_stride=1\n", 0x1000,
           K * COUT * 2 / FR);
    printf("set_flag src=MTE1 dst=M id=0\n");
    printf("wait_flag src=MTE1 dst=M id=0\n");
    printf("mmad c=l0c:0x0 a=l0a:0x0 b=l0b:0x0 dtype=f16 m=%u k=%u n=%u init=1\n", M, K, COUT);
    printf("set_flag src=M dst=V id=0\n");
    printf("wait_flag src=M dst=V id=0\n");
    printf("# V: L0C (f32) -> UB (f16, ReLU), staying NC1HWC0 (no NZ -> ND)\n");
    printf("copy_matrix_cc_to_ubuf dst=ub:0x0 src=l0c:0x0 n_size=%u m_size=%u src_stride=%u dst_stride=%u quant=f16 "
           "relu=1 nz2nd=0\n", COUT, M, M, M);
    printf("set_flag src=V dst=MTE3 id=0\n");
    printf("wait_flag src=V dst=MTE3 id=0\n");
    printf("copy_ubuf_to_gm dst=out+0x0 src=ub:0x0 nburst=1 len=%u\n", M * COUT * 2 / 32);
    printf("end\n");
}

/* The 910B's split form: a mix kernel on 2 AI core groups.  Each block's AIC computes
 * W[64x64] f32 = A_b[64x64] f16 x B[64x64] f16 into a GM workspace through FixPipe and signals its
 * AIVs (cross-core mode 2, set on the FIX pipe once the write is done); each AIV waits on its MTE2
 * pipe, brings 32 rows into UB, applies ReLU, casts to f16 and writes its half of the output.  AIC
 * and AIV share data only through GM (ref 4.1). */
static void matmul_relu_mix(void)
{
    enum { M = 64, K = 64, N = 64, ROWS = M / 2, BLOCKS = 2 };
    const unsigned ws_rows = ROWS * N * 4; /* one AIV's share of the workspace, bytes */
    header("matmul_relu_mix", "mix", BLOCKS,
           "out_b = f16(relu(A_b x B)) on 2 AIC+2AIV groups: cube -> GM workspace -> cross-core flag -> vector");
    printf("arg a bytes=%u dtype=f16 dir=in init=random:1\n", BLOCKS * M * K * 2);
    printf("arg b bytes=%u dtype=f16 dir=in init=random:2\n", K * N * 2);
    printf("arg ws bytes=%u dtype=f32 dir=inout init=zero\n", BLOCKS * M * N * 4);
    printf("arg out bytes=%u dtype=f16 dir=out init=zero\n", BLOCKS * M * N * 2);
    for (unsigned blk = 0; blk < BLOCKS; blk++) {
        printf("block %u aic\n", blk);
        matmul_aic(blk * M * K * 2, "ws", blk * M * N * 4, 0);
        printf("# tell both AIVs of this group that the workspace is written\n");
        printf("set_cross_flag pipe=FIX mode=2 id=0\n");
        for (unsigned v = 0; v < 2; v++) {
            printf("block %u aiv%u\n", blk, v);
            printf("wait_cross_flag pipe=MTE2 id=0\n");
            printf("copy_gm_to_ubuf dst=ub:0x0 src=ws+0x%x nburst=1 len=%u\n", blk * M * N * 4 + v * ws_rows,
                   ws_rows / 32);
            printf("set_flag src=MTE2 dst=V id=0\n");
            printf("wait_flag src=MTE2 dst=V id=0\n");
            printf("vrelu dst=ub:0x0 src=ub:0x0 dtype=f32 repeat=%u\n", ws_rows / 256);
            printf("pipe_barrier pipe=V\n");
            printf("# f32 -> f16: 64 elements per repeat, the f16 side packed 128 B per repeat\n");
            printf("vconv dst=ub:0x%x src=ub:0x0 dst_type=f16 src_type=f32 round=r repeat=%u dst_rep=4 src_rep=8\n",
                   ws_rows, ws_rows / 256);
            printf("set_flag src=V dst=MTE3 id=0\n");
            printf("wait_flag src=V dst=MTE3 id=0\n");
            printf("copy_ubuf_to_gm dst=out+0x%x src=ub:0x%x nburst=1 len=%u\n", blk * M * N * 2 + v * ROWS * N * 2,
                   ws_rows, ROWS * N * 2 / 32);
        }
    }
    printf("end\n");
}

static int usage(void)
{
    fprintf(stderr, "usage: gentrace vadd_double_buffer|matmul_tile|conv_tile_310|missing_wait|matmul_relu_mix\n"
                    "       gentrace --vadd-long BLOCKS TILES\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--vadd-long") == 0) {
        char *e1, *e2;
        unsigned long blocks = strtoul(argv[2], &e1, 10), tiles = strtoul(argv[3], &e2, 10);
        if (*e1 || *e2 || blocks == 0 || tiles == 0 || blocks > 65535 || tiles > 100000000)
            return usage();
        banner_command = "sh bench/run.sh";
        snprintf(banner_args, sizeof banner_args, "--vadd-long %lu %lu", blocks, tiles);
        header("vadd_long", "vector", (unsigned)blocks, "long double-buffered z = x + y for the benchmark");
        vadd_double_buffer((unsigned)blocks, (unsigned)tiles, 0);
    } else if (argc == 2 && strcmp(argv[1], "vadd_double_buffer") == 0) {
        header("vadd_double_buffer", "vector", 8,
               "z = x + y, f16, 8 blocks x 4 tiles of 8192 elements, double-buffered in UB");
        vadd_double_buffer(8, 4, 1);
    } else if (argc == 2 && strcmp(argv[1], "matmul_tile") == 0)
        matmul_tile();
    else if (argc == 2 && strcmp(argv[1], "conv_tile_310") == 0)
        conv_tile_310();
    else if (argc == 2 && strcmp(argv[1], "missing_wait") == 0)
        missing_wait();
    else if (argc == 2 && strcmp(argv[1], "matmul_relu_mix") == 0)
        matmul_relu_mix();
    else
        return usage();
    return fflush(stdout) == 0 ? 0 : 1;
}
