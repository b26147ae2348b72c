/* dvsim/acl_graph.h - an operator graph launched fused from a host program: the kernels that
 * `dvsim fusion GRAPH` plans for the fused variant (docs/FUSION.md), queued on a stream, each a row
 * of the op_summary CSV ("fused:mm+act" with OP Type "Fused", or the node's own operator).
 *
 * Two phases, like aclnn's:
 *     dvsimGraph *g; uint64_t ws;
 *     dvsimGraphCreate("graphs/bert_ffn_s128.yaml", &g, &ws);      // read, rewrite, plan, build
 *     aclrtMalloc(&workspace, ws, ...);
 *     dvsimGraphLaunch(g, inputs, nIn, outputs, nOut, workspace, ws, stream);
 *     aclrtSynchronizeStream(stream);
 *     dvsimGraphDestroy(g);
 * inputs[i] is a device buffer holding the graph's i-th input (in the file's `inputs` order, the
 * shape and dtype the file gives, row-major), outputs[i] receives its i-th output.  The workspace
 * holds the tensors stored between kernels, the kernels' workspaces and the operators' own
 * arguments (conv weights, normalisation parameters), which dvsimGraphLaunch writes as `dvsim
 * fusion` initialises them (seeded random values, BatchNorm folded into the conv where the graph
 * rewrite applies). */
#ifndef DVSIM_ACL_GRAPH_H
#define DVSIM_ACL_GRAPH_H

#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dvsimGraph dvsimGraph;

/* Read and plan the graph file at `path` for the chip of aclInit: *graph and the workspace bytes a
 * launch needs.  A bad graph returns ACL_ERROR_INVALID_FILE with the located message in
 * aclGetRecentErrMsg. */
ACL_FUNC_VISIBILITY aclError dvsimGraphCreate(const char *path, dvsimGraph **graph, uint64_t *workspaceSize);

/* Number of inputs and outputs and their bytes (NULL arrays are skipped; bytes arrays need
 * *nInputs / *nOutputs entries). */
ACL_FUNC_VISIBILITY aclError dvsimGraphGetIo(const dvsimGraph *graph, uint32_t *nInputs, uint64_t *inputBytes,
                                             uint32_t *nOutputs, uint64_t *outputBytes);

/* Queue the graph's fused kernels on `stream`.  Every buffer is a device pointer whose allocation
 * holds the bytes from there; the workspace at least the size dvsimGraphCreate gave. */
ACL_FUNC_VISIBILITY aclError dvsimGraphLaunch(dvsimGraph *graph, void *const *inputs, uint32_t nInputs,
                                              void *const *outputs, uint32_t nOutputs, void *workspace,
                                              uint64_t workspaceSize, aclrtStream stream);

/* Run what is queued, then free the graph (its kernels are the launches'). */
ACL_FUNC_VISIBILITY aclError dvsimGraphDestroy(dvsimGraph *graph);

#ifdef __cplusplus
}
#endif
#endif
