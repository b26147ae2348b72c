/* examples/fusion_graph/main.c - an operator graph launched fused from host code: the BERT FFN
 * graph (matmul, bias add, GeLU) as `dvsim fusion` plans it, queued on a stream with dvsim's graph
 * extension (dvsim/acl_graph.h), profiled with aclprof so its fused kernel shows in op_summary.csv.
 *
 *   gcc -I$PREFIX/include -L$PREFIX/lib main.c -lascendcl -lnnopbase -lopapi -o fusion_graph
 *   ./fusion_graph [GRAPH.yaml]            (default graphs/bert_ffn_s128.yaml, run from the source tree)
 *
 * Exits 0 when the graph ran, its output is finite and the CSV names the fused kernel. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "dvsim/acl_graph.h"

#define CHECK(call)                                                                                     \
    do {                                                                                                \
        aclError ret_ = (call);                                                                         \
        if (ret_ != ACL_SUCCESS) {                                                                      \
            const char *msg_ = aclGetRecentErrMsg();                                                    \
            printf("FAIL %s:%d: %s returned %d: %s\n", __FILE__, __LINE__, #call, ret_, msg_ ? msg_ : ""); \
            return 1;                                                                                   \
        }                                                                                               \
    } while (0)

/* fp16 bits of a small float (normal range, round toward zero: enough for test inputs). */
static uint16_t half_of(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    const uint32_t sign = (x >> 16) & 0x8000u;
    const int exp = (int)((x >> 23) & 0xff) - 127 + 15;
    if (exp <= 0)
        return (uint16_t)sign;
    return (uint16_t)(sign | (uint32_t)exp << 10 | (x >> 13 & 0x3ffu));
}

static int half_is_finite(uint16_t h) { return (h & 0x7c00u) != 0x7c00u; }

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "graphs/bert_ffn_s128.yaml";
    char dir[] = "/tmp/fusion_graph_XXXXXX", csv[128], line[2048];
    if (!mkdtemp(dir))
        return 1;
    snprintf(csv, sizeof csv, "%s/op_summary.csv", dir);
    aclrtStream stream;
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&stream));
    uint32_t devs[1] = {0};
    CHECK(aclprofInit(dir, strlen(dir)));
    aclprofConfig *cfg = aclprofCreateConfig(devs, 1, ACL_AICORE_PIPE_UTILIZATION, NULL, ACL_PROF_TASK_TIME);
    CHECK(aclprofStart(cfg));

    /* phase 1: read and plan the graph, learn its buffers */
    dvsimGraph *graph;
    uint64_t ws_bytes, in_bytes[16], out_bytes[16];
    uint32_t nin, nout;
    CHECK(dvsimGraphCreate(path, &graph, &ws_bytes));
    CHECK(dvsimGraphGetIo(graph, &nin, NULL, &nout, NULL));
    if (nin > 16 || nout > 16) {
        printf("FAIL: %u inputs and %u outputs, this example takes 16 each\n", nin, nout);
        return 1;
    }
    CHECK(dvsimGraphGetIo(graph, &nin, in_bytes, &nout, out_bytes));
    void *in[16], *out[16], *ws = NULL;
    for (uint32_t i = 0; i < nin; i++) { /* fp16 inputs in [-1, 1) */
        uint16_t *h = malloc(in_bytes[i]);
        for (uint64_t j = 0; j < in_bytes[i] / 2; j++)
            h[j] = half_of((float)((j * 2654435761u) % 2000) / 1000.0f - 1.0f);
        CHECK(aclrtMalloc(&in[i], in_bytes[i], ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK(aclrtMemcpy(in[i], in_bytes[i], h, in_bytes[i], ACL_MEMCPY_HOST_TO_DEVICE));
        free(h);
    }
    for (uint32_t i = 0; i < nout; i++)
        CHECK(aclrtMalloc(&out[i], out_bytes[i], ACL_MEM_MALLOC_HUGE_FIRST));
    if (ws_bytes)
        CHECK(aclrtMalloc(&ws, ws_bytes, ACL_MEM_MALLOC_HUGE_FIRST));

    /* phase 2: launch on the stream and wait */
    CHECK(dvsimGraphLaunch(graph, in, nin, out, nout, ws, ws_bytes, stream));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclprofStop(cfg));
    CHECK(aclprofDestroyConfig(cfg));
    CHECK(aclprofFinalize());

    uint16_t *h = malloc(out_bytes[0]);
    CHECK(aclrtMemcpy(h, out_bytes[0], out[0], out_bytes[0], ACL_MEMCPY_DEVICE_TO_HOST));
    uint64_t bad = 0;
    for (uint64_t j = 0; j < out_bytes[0] / 2; j++)
        bad += !half_is_finite(h[j]);
    free(h);
    CHECK(dvsimGraphDestroy(graph));
    for (uint32_t i = 0; i < nin; i++)
        CHECK(aclrtFree(in[i]));
    for (uint32_t i = 0; i < nout; i++)
        CHECK(aclrtFree(out[i]));
    if (ws)
        CHECK(aclrtFree(ws));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());

    /* the profile: one row per kernel; a fused group has OP Type Fused */
    FILE *f = fopen(csv, "r");
    int rows = 0, fused = 0;
    while (f && fgets(line, sizeof line, f))
        if (rows++ > 0 && strstr(line, ",\"Fused\",")) {
            fused++;
            printf("op_summary: %.*s\n", (int)(strchr(line, '\n') ? strchr(line, '\n') - line : 120), line);
        }
    if (f)
        fclose(f);
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        printf("could not remove %s\n", dir);
    if (bad || !fused) {
        printf("FAIL: %llu non-finite outputs, %d fused kernels in %s\n", (unsigned long long)bad, fused, csv);
        return 1;
    }
    printf("fusion_graph example: PASS (%d kernel%s, %d fused)\n", rows - 1, rows == 2 ? "" : "s", fused);
    return 0;
}
