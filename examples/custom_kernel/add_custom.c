/* add_custom.c - the classic Ascend C "add_custom" kernel (z = x + y, fp16, 8 tiles per block,
 * double buffered) written against dvsim's kernel API, and its launch stub.
 *
 * The kernel runs once per block on the host and emits that block's instructions; the queues
 * (dvk_que_*) are TQue with depth 2.  `n` is the launch's only scalar: elements per block. */
#include "aclrtlaunch_add_custom.h"
#include "dvsim/acl_launch.h"

enum { TILE_NUM = 8, BUFFER_NUM = 2 };

typedef struct add_params {
    uint32_t block_length; /* elements per block */
} add_params_t;

static void add_custom_kernel(dv_k_t *k, const void *p)
{
    const add_params_t *prm = p;
    const uint32_t tile = prm->block_length / TILE_NUM / BUFFER_NUM; /* elements per copy */
    const uint64_t base = (uint64_t)dvk_block_idx(k) * prm->block_length * 2;
    dv_que_t qx, qy, qz;
    dvk_que_init(k, &qx, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, BUFFER_NUM, tile * 2);
    dvk_que_init(k, &qy, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, BUFFER_NUM, tile * 2);
    dvk_que_init(k, &qz, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, BUFFER_NUM, tile * 2);
    for (uint32_t i = 0; i < TILE_NUM * BUFFER_NUM; i++) {
        uint64_t off = base + (uint64_t)i * tile * 2;
        /* CopyIn */
        uint64_t x = dvk_que_alloc(k, &qx), y = dvk_que_alloc(k, &qy);
        dvk_copy_gm_to_ubuf(k, x, dvk_gm(k, 0, off), 1, tile * 2 / 32, 0, 0);
        dvk_copy_gm_to_ubuf(k, y, dvk_gm(k, 1, off), 1, tile * 2 / 32, 0, 0);
        dvk_que_enque(k, &qx, x);
        dvk_que_enque(k, &qy, y);
        /* Compute: 128 fp16 elements per repeat */
        x = dvk_que_deque(k, &qx);
        y = dvk_que_deque(k, &qy);
        uint64_t z = dvk_que_alloc(k, &qz);
        dvk_vadd(k, z, x, y, DV_DT_F16, tile / 128, 1, 1, 1, 8, 8, 8);
        dvk_que_enque(k, &qz, z);
        dvk_que_free(k, &qx, x);
        dvk_que_free(k, &qy, y);
        /* CopyOut */
        z = dvk_que_deque(k, &qz);
        dvk_copy_ubuf_to_gm(k, dvk_gm(k, 2, off), z, 1, tile * 2 / 32, 0, 0);
        dvk_que_free(k, &qz, z);
    }
}

/* The launch stub CANN would generate: the GM pointers and the scalars of this launch. */
uint32_t aclrtlaunch_add_custom(uint32_t blockDim, aclrtStream stream, void *x, void *y, void *z)
{
    void *gm[3] = {x, y, z};
    add_params_t prm = {8 * 2048 / (blockDim ? blockDim : 1)};
    return (uint32_t)dvsimLaunchKernel("add_custom", add_custom_kernel, DV_KIND_VECTOR, blockDim, stream, gm, 3, &prm,
                                       sizeof prm);
}
