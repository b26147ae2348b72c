/* acl/nnmove.c - the first phases of the data-movement aclnn operators (acl/nnops.def, section
 * s20-move) onto the library's layout operators (ops/layout.c), which move bytes by DMA and are
 * bit-exact for every dtype they take.
 *
 * Every operator sees a tensor around its axis `dim` as the row-major view [outer, len, inner]
 * (outer: the product of the dims before dim, inner: of the dims after):
 * - Cat: member i is [outer, len_i * inner]; concat joins them along axis 1 (2 to 4 members with
 *   elements; a single one is copied).  Members with no elements are skipped (PyTorch also skips
 *   the legacy 1-D empty tensor, whatever the other dims).
 * - Stack: member i is [outer, 1, inner] and concat joins them along axis 1.
 * - Slice, SplitTensor, SplitWithSize: out = self[start::step][:n] along dim: the library's slice
 *   takes rows start, start + step, ... of [outer, len, inner] (inner > 1: whole rows by DMA, the
 *   step a DMA gap), or, when inner is 1, columns of [outer, len] (a column step picks through
 *   vtranspose while it fits the vcopy block stride; beyond that the row form).  A split is one
 *   slice per member of out, run in turn by the second phase (the executors are chained as the
 *   foreach operators' are).
 * - Flatten, and Cat or Stack of one member with elements: a copy, by tile with repeats 1.
 * - IndexSelect, GatherV2, GatherV3 (batchDims 0), Embedding (dim 0 of a 2-D weight), Take (self
 *   flattened): index_select of [outer, len, inner] with the index's elements; out's dims are
 *   self's with dim replaced by index's.
 * - Repeat, RepeatInterleaveInt(WithDim): tile.  Adjacent dims merge while the inner one is not
 *   repeated (y's layout is the same), so any rank fits tile's six dims in the common cases;
 *   repeat_interleave is the tile of [outer * len, inner] by [1, repeats].
 * - Tril, Triu and their in-place forms: trilu on self's last two dims.
 * - Roll: roll of [outer, len, inner] around the one dim whose shifts add up to a roll (none: a
 *   roll by 0 is the copy); Flip: flip of self with adjacent dims of the same kind merged.
 * - ConstantPadNd: pad with each dim's (before, after) from the pad pairs (last dim first).
 * - Eye: eye of out [n, m].
 * - OneHot: one_hot of self's indices (int32, or int64 bound as words as the gathers do), the new
 *   axis last; onValue and offValue are one-element device tensors the kernel reads.
 * - Gather (torch.gather): gather_elements of [outer, len, inner] with index [outer, J, inner].
 * - StridedSlice: positive strides, begin / end masks and shrinkAxisMask; what is sliced must be one
 *   dim (Slice's mapping) or the last two dims (slice's own rows x columns). */
#include "nn.h"

#include "dv/ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_eye.h"
#include "aclnnop/aclnn_flatten.h"
#include "aclnnop/aclnn_flip.h"
#include "aclnnop/aclnn_gather.h"
#include "aclnnop/aclnn_gather_v2.h"
#include "aclnnop/aclnn_gather_v3.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_one_hot.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_repeat_interleave.h"
#include "aclnnop/aclnn_roll.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_split_tensor.h"
#include "aclnnop/aclnn_split_with_size.h"
#include "aclnnop/aclnn_stack.h"
#include "aclnnop/aclnn_strided_slice.h"
#include "aclnnop/aclnn_take.h"
#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_triu.h"

enum { CONCAT_MAX = 4 }; /* concat's --inputs limit (ops/layout.c) */
enum { VCOPY_BLK_MAX = 255 }; /* slice's column step x 16-bit units per element (its --step limit) */

/* dim of a tensor of n dims (a 0-d tensor has one position, as in PyTorch): -n..n-1, or -n-1..n
 * for a new axis (extra 1), normalised into *d. */
static int move_dim(const char *gws, const char *what, int64_t dim, int n, int extra, int *d)
{
    const int top = (n > 0 ? n : 1) + extra;
    if (dim < -top || dim >= top)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is %lld; for %d dimensions it must be in [%d, %d]", gws,
                           what, (long long)dim, n, -top, top - 1);
    *d = (int)(dim < 0 ? dim + top : dim);
    return ACLNN_SUCCESS;
}

/* outer x len x inner of t around dim d (len 1 for a 0-d tensor). */
static void move_view(const aclTensor *t, int d, int64_t *outer, int64_t *len, int64_t *inner)
{
    *outer = *inner = 1;
    *len = t->ndims ? t->dims[d] : 1;
    for (int i = 0; i < t->ndims; i++) {
        if (i < d)
            *outer *= t->dims[i];
        else if (i > d)
            *inner *= t->dims[i];
    }
}

/* out's dims must be want's (nd of them). */
static int move_out_shape(const char *gws, const aclTensor *out, const char *what, const int64_t *want, int nd,
                          const char *why)
{
    bool same = out->ndims == nd;
    for (int i = 0; same && i < nd; i++)
        same = out->dims[i] == want[i];
    if (same)
        return ACLNN_SUCCESS;
    char got[128], need[128];
    size_t n = 0;
    dv_acl_dims_str(out, got, sizeof got);
    need[0] = 0;
    for (int i = 0; i < nd && n < sizeof need; i++)
        n += (size_t)snprintf(need + n, sizeof need - n, "%s%lld", i ? "," : "", (long long)want[i]);
    return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has shape [%s]; %s needs [%s]", gws, what, got, why, need);
}

/* The checks every tensor of these operators takes: live, a plain format, a dtype the library
 * operator of the row takes. */
static int move_tensor(const dv_nn_call_t *c, const aclTensor *t, const char *what)
{
    int rc;
    if ((rc = dv_nn_get_tensor(c, t, what)) || (rc = dv_nn_check_plain(c, t, what)) ||
        (rc = dv_nn_check_dtype(c, t, what, "dtype")))
        return rc;
    return ACLNN_SUCCESS;
}

/* One slice executor: out = rows start, start + step, ... (n of them) of self's [outer, len, inner]
 * view.  The caller checked both tensors and out's shape. */
static int move_slice(const char *api, const aclTensor *self, const aclTensor *out, int64_t outer, int64_t len,
                      int64_t inner, int64_t start, int64_t step, int64_t n, aclOpExecutor **e)
{
    dv_nn_call_t call, *c = &call;
    uint64_t ws;
    dv_nn_call_init_row(c, api);
    c->op = "slice"; /* the row's operator for Slice and the splits; StridedSlice's too */
    c->empty = outer * n * inner == 0;
    if (n == 1)
        step = 1;
    const unsigned units = (unsigned)dv_acl_dtype_info(self->dtype)->size / 2;
    if (inner == 1 && (uint64_t)step * units <= VCOPY_BLK_MAX) {
        dv_nn_call_param(c, "shape", "%lldx%lld", (long long)outer, (long long)len);
        dv_nn_call_param(c, "start", "0x%lld", (long long)start);
        dv_nn_call_param(c, "step", "1x%lld", (long long)step);
        dv_nn_call_param(c, "size", "%lldx%lld", (long long)outer, (long long)n);
    } else {
        dv_nn_call_param(c, "shape", "%lldx%lldx%lld", (long long)outer, (long long)len, (long long)inner);
        dv_nn_call_param(c, "start", "%lldx0", (long long)start);
        dv_nn_call_param(c, "step", "%lldx1", (long long)step);
        dv_nn_call_param(c, "size", "%lldx%lld", (long long)n, (long long)inner);
    }
    dv_nn_call_param(c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(self->dtype)->dv));
    dv_nn_call_tensor(c, self, "self", "x", true);
    dv_nn_call_tensor(c, out, "out", "y", false);
    return dv_nn_exec_build(c, &ws, e);
}

/* One copy executor: out = self's n elements as they are, by tile with repeats 1 (DMA in, DMA out; it
 * takes every byte dtype).  The caller checked both tensors. */
static int move_copy(const char *api, const aclTensor *self, const aclTensor *out, int64_t n, aclOpExecutor **e)
{
    dv_nn_call_t call, *c = &call;
    uint64_t ws;
    dv_nn_call_init_row(c, api);
    c->op = "tile"; /* Cat and Stack of one member, Flatten */
    c->empty = n == 0;
    dv_nn_call_param(c, "shape", "%lld", (long long)n);
    dv_nn_call_param(c, "repeats", "1");
    dv_nn_call_param(c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(self->dtype)->dv));
    dv_nn_call_tensor(c, self, "self", "x", true);
    dv_nn_call_tensor(c, out, "out", "y", false);
    return dv_nn_exec_build(c, &ws, e);
}

/* ---------------------------------------------------------------- Slice */

aclnnStatus aclnnSliceGetWorkspaceSize(const aclTensor *self, int64_t dim, int64_t start, int64_t end, int64_t step,
                                       aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc, d = 0;
    dv_nn_call_init_row(&c, "aclnnSlice");
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = move_tensor(&c, self, "self")) ||
        (rc = move_tensor(&c, out, "out")) || (rc = dv_nn_check_same_dtype(&c, self, "self", out, "out")))
        return rc;
    if (self->ndims == 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: self is 0-dimensional; slicing needs a dimension", c.gws);
    if ((rc = move_dim(c.gws, "dim", dim, self->ndims, 0, &d)))
        return rc;
    if (step < 1)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: step is %lld; it must be at least 1", c.gws,
                           (long long)step);
    int64_t outer, len, inner;
    move_view(self, d, &outer, &len, &inner);
    /* PyTorch's bounds: negative counts from the end, then both clamp into [0, len] */
    int64_t s = start < 0 ? start + len : start, t = end < 0 ? end + len : end;
    s = s < 0 ? 0 : s > len ? len : s;
    t = t < 0 ? 0 : t > len ? len : t;
    const int64_t n = t > s ? (t - s + step - 1) / step : 0;
    int64_t want[DV_ACL_MAX_DIMS] = {0};
    for (int i = 0; i < self->ndims; i++)
        want[i] = i == d ? n : self->dims[i];
    char why[96];
    snprintf(why, sizeof why, "self[%lld:%lld:%lld] along dim %d", (long long)start, (long long)end, (long long)step,
             d);
    if ((rc = move_out_shape(c.gws, out, "out", want, self->ndims, why)))
        return rc;
    aclOpExecutor *e = NULL;
    if ((rc = move_slice("aclnnSlice", self, out, outer, len, inner, n ? s : 0, step, n, &e)))
        return rc;
    *workspaceSize = e->workspace;
    *executor = e;
    return ACLNN_SUCCESS;
}

/* ---------------------------------------------------------------- SplitTensor, SplitWithSize */

/* out[i] = the sizes[i] dim-slices of self after those of the members before it. */
static int move_split(const char *api, const char *gws, const aclTensor *self, const int64_t *sizes, uint64_t n,
                      int d, const struct aclTensorList *lo, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    int64_t outer, len, inner, off = 0;
    move_view(self, d, &outer, &len, &inner);
    if (lo->size != n)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: out has %llu tensors; the split makes %llu", gws,
                           (unsigned long long)lo->size, (unsigned long long)n);
    aclOpExecutor *head = NULL, **tail = &head;
    uint64_t ws = 0;
    dv_nn_call_t c;
    dv_nn_call_init_row(&c, api);
    for (uint64_t i = 0; i < n; i++) {
        const aclTensor *o = lo->v[i];
        char what[32], why[64];
        int64_t want[DV_ACL_MAX_DIMS] = {0};
        int rc;
        snprintf(what, sizeof what, "out[%llu]", (unsigned long long)i);
        for (int j = 0; j < self->ndims; j++)
            want[j] = j == d ? sizes[i] : self->dims[j];
        snprintf(why, sizeof why, "dim-slices %lld to %lld of self", (long long)off, (long long)(off + sizes[i]));
        aclOpExecutor *e = NULL;
        if ((rc = move_tensor(&c, o, what)) || (rc = dv_nn_check_same_dtype(&c, self, "self", o, what)) ||
            (rc = move_out_shape(gws, o, what, want, self->ndims, why)) ||
            (rc = move_slice(api, self, o, outer, len, inner, sizes[i] ? off : 0, 1, sizes[i], &e))) {
            dv_acl_executor_free(head);
            return rc;
        }
        off += sizes[i];
        ws += e->workspace;
        *tail = e;
        tail = &e->next;
    }
    *workspaceSize = ws;
    *executor = head;
    return ACLNN_SUCCESS;
}

/* The checks both splits start with: self, dim (normalised into *d) and the out list. */
static int move_split_start(dv_nn_call_t *c, const aclTensor *self, int64_t dim, const aclTensorList *out,
                            uint64_t *workspaceSize, aclOpExecutor **executor, int *d,
                            const struct aclTensorList **lo)
{
    int rc;
    if ((rc = dv_nn_call_start(c, workspaceSize, executor)) || (rc = move_tensor(c, self, "self")))
        return rc;
    if (self->ndims == 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: self is 0-dimensional; splitting needs a dimension", c->gws);
    if ((rc = move_dim(c->gws, "dim", dim, self->ndims, 0, d)))
        return rc;
    if (!(*lo = dv_acl_tensor_list_get(out, c->gws, "out", &rc)))
        return rc;
    return ACLNN_SUCCESS;
}

aclnnStatus aclnnSplitTensorGetWorkspaceSize(const aclTensor *self, uint64_t splitSections, int64_t dim,
                                             aclTensorList *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    const struct aclTensorList *lo;
    int rc, d = 0;
    dv_nn_call_init_row(&c, "aclnnSplitTensor");
    if ((rc = move_split_start(&c, self, dim, out, workspaceSize, executor, &d, &lo)))
        return rc;
    const int64_t len = self->dims[d];
    if (splitSections == 0 && len > 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: splitSections is 0; it must be at least 1 when dim %d has "
                           "%lld elements", c.gws, d, (long long)len);
    /* PyTorch: ceil(len / sections) members, the last one shorter (one empty member when len is 0) */
    const uint64_t n = len == 0 ? 1 : ((uint64_t)len + splitSections - 1) / splitSections;
    if (n != lo->size)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: out has %llu tensors; splitting %lld by %llu makes %llu",
                           c.gws, (unsigned long long)lo->size, (long long)len, (unsigned long long)splitSections,
                           (unsigned long long)n);
    int64_t *sizes = calloc(n, sizeof *sizes);
    if (!sizes)
        return dv_acl_fail(ACLNN_ERR_INNER_NULLPTR, "%s: out of host memory", c.gws);
    for (uint64_t i = 0; i < n; i++) {
        const int64_t first = (int64_t)(i * splitSections);
        sizes[i] = len - first < (int64_t)splitSections ? len - first : (int64_t)splitSections;
    }
    rc = move_split("aclnnSplitTensor", c.gws, self, sizes, n, d, lo, workspaceSize, executor);
    free(sizes);
    return rc;
}

aclnnStatus aclnnSplitWithSizeGetWorkspaceSize(const aclTensor *self, const aclIntArray *splitSize, int64_t dim,
                                               aclTensorList *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    const struct aclTensorList *lo;
    int rc, d = 0;
    dv_nn_call_init_row(&c, "aclnnSplitWithSize");
    if ((rc = move_split_start(&c, self, dim, out, workspaceSize, executor, &d, &lo)))
        return rc;
    if (!splitSize)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: splitSize is NULL", c.gws);
    if (!dv_acl_handle_is(splitSize, DV_ACL_MAGIC_INT_ARRAY))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: splitSize is not a live aclIntArray", c.gws);
    int64_t sum = 0;
    for (uint64_t i = 0; i < splitSize->size; i++) {
        if (splitSize->v[i] < 0)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: splitSize[%llu] is %lld; sizes are not negative", c.gws,
                               (unsigned long long)i, (long long)splitSize->v[i]);
        sum += splitSize->v[i];
    }
    if (splitSize->size == 0 || sum != self->dims[d])
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: splitSize adds up to %lld; dim %d of self has %lld", c.gws,
                           (long long)sum, d, (long long)self->dims[d]);
    return move_split("aclnnSplitWithSize", c.gws, self, splitSize->v, splitSize->size, d, lo, workspaceSize,
                      executor);
}

/* ---------------------------------------------------------------- Flatten */

aclnnStatus aclnnFlattenGetWorkspaceSize(const aclTensor *self, int64_t axis, aclTensor *out, uint64_t *workspaceSize,
                                         aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc, a = 0;
    dv_nn_call_init_row(&c, "aclnnFlatten");
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = move_tensor(&c, self, "self")) ||
        (rc = move_tensor(&c, out, "out")) || (rc = dv_nn_check_same_dtype(&c, self, "self", out, "out")) ||
        (rc = move_dim(c.gws, "axis", axis, self->ndims, 0, &a)))
        return rc;
    int64_t want[2] = {1, 1};
    for (int i = 0; i < self->ndims; i++)
        want[i >= a] *= self->dims[i];
    char why[64];
    snprintf(why, sizeof why, "flattening at axis %d", a);
    if ((rc = move_out_shape(c.gws, out, "out", want, 2, why)))
        return rc;
    const int64_t n = want[0] * want[1];
    aclOpExecutor *e = NULL;
    if ((rc = move_copy("aclnnFlatten", self, out, n, &e)))
        return rc;
    *workspaceSize = e->workspace;
    *executor = e;
    return ACLNN_SUCCESS;
}

/* ---------------------------------------------------------------- Cat, Stack */

/* Cat (stack false) or Stack of the list onto concat: the members with elements, as [outer,
 * lens[i], inner] joined along axis 1. */
static int move_join(const char *api, const aclTensorList *tensors, int64_t dim, aclTensor *out, bool stack,
                     uint64_t *workspaceSize, aclOpExecutor **executor)
{
    dv_nn_call_t c;
    int rc, d = 0;
    dv_nn_call_init_row(&c, api);
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)))
        return rc;
    const struct aclTensorList *l = dv_acl_tensor_list_get(tensors, c.gws, "tensors", &rc);
    if (!l)
        return rc;
    if ((rc = move_tensor(&c, out, "out")))
        return rc;
    if (l->size == 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: tensors is an empty list", c.gws);
    static const char *const names[CONCAT_MAX] = {"x1", "x2", "x3", "x4"};
    const aclTensor *ref = NULL, *use[CONCAT_MAX];
    int64_t lens[CONCAT_MAX], total = 0;
    int nuse = 0;
    uint64_t have = 0;
    /* the reference member: the first that is not the legacy 1-D empty tensor */
    for (uint64_t i = 0; i < l->size && !ref; i++)
        if (stack || !(l->v[i]->ndims == 1 && l->v[i]->dims[0] == 0))
            ref = l->v[i];
    if (!ref)
        ref = l->v[0];
    const int nd = ref->ndims;
    if ((rc = move_dim(c.gws, "dim", dim, nd, stack ? 1 : 0, &d)))
        return rc;
    if (!stack && nd == 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: tensors[0] is 0-dimensional; cat needs a dimension (stack "
                           "makes one)", c.gws);
    for (uint64_t i = 0; i < l->size; i++) {
        const aclTensor *t = l->v[i];
        char what[32];
        snprintf(what, sizeof what, "tensors[%llu]", (unsigned long long)i);
        if ((rc = move_tensor(&c, t, what)) || (rc = dv_nn_check_same_dtype(&c, t, what, out, "out")))
            return rc;
        if (!stack && t->ndims == 1 && t->dims[0] == 0)
            continue;
        bool same = t->ndims == nd;
        for (int j = 0; same && j < nd; j++)
            same = (!stack && j == d) || t->dims[j] == ref->dims[j];
        if (!same) {
            char a[64], b[64];
            dv_acl_dims_str(t, a, sizeof a);
            dv_acl_dims_str(ref, b, sizeof b);
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has shape [%s], the first has [%s]; %s", c.gws, what,
                               a, b, stack ? "stack needs one shape" : "cat needs every dim but dim equal");
        }
        const int64_t len = stack ? 1 : t->dims[d];
        total += len;
        if (dv_acl_tensor_elems(t) == 0)
            continue;
        if (nuse == CONCAT_MAX)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: more than %d of the tensors have elements; dvsim's "
                               "concat joins at most %d (not supported)", c.gws, CONCAT_MAX, CONCAT_MAX);
        use[nuse] = t;
        lens[nuse++] = len;
        have += dv_acl_tensor_elems(t);
    }
    int64_t want[DV_ACL_MAX_DIMS] = {0};
    const int ond = stack ? nd + 1 : nd;
    for (int j = 0; j < ond; j++)
        want[j] = j == d ? total : ref->dims[stack && j > d ? j - 1 : j];
    if ((rc = move_out_shape(c.gws, out, "out", want, ond, stack ? "stacking the tensors" : "joining the tensors")))
        return rc;
    int64_t outer = 1, inner = 1;
    for (int j = 0; j < nd; j++) {
        if (j < d)
            outer *= ref->dims[j];
        else if (j > d || stack)
            inner *= ref->dims[j];
    }
    c.empty = have == 0;
    const char *dt = dv_nn_param_dtype_name(dv_acl_dtype_info(out->dtype)->dv);
    if (nuse == 1) {
        /* one member with elements: out is its copy */
        aclOpExecutor *e = NULL;
        if ((rc = move_copy(api, use[0], out, (int64_t)have, &e)))
            return rc;
        *workspaceSize = e->workspace;
        *executor = e;
        return ACLNN_SUCCESS;
    }
    if (!c.empty) {
        char sizes[96];
        size_t n = 0;
        for (int i = 0; i < nuse; i++)
            n += (size_t)snprintf(sizes + n, sizeof sizes - n, "%s%lld", i ? "x" : "", (long long)lens[i]);
        dv_nn_call_param(&c, "shape", "%lldx%lldx%lld", (long long)outer, (long long)lens[0], (long long)inner);
        dv_nn_call_param(&c, "dtype", "%s", dt);
        dv_nn_call_param(&c, "inputs", "%d", nuse);
        dv_nn_call_param(&c, "axis", "1");
        dv_nn_call_param(&c, "sizes", "%s", sizes);
        for (int i = 0; i < nuse; i++)
            dv_nn_call_tensor(&c, use[i], "tensors", names[i], true);
    }
    dv_nn_call_tensor(&c, out, "out", "y", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}

aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList *tensors, int64_t dim, aclTensor *out, uint64_t *workspaceSize,
                                     aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return move_join("aclnnCat", tensors, dim, out, false, workspaceSize, executor);
}

aclnnStatus aclnnStackGetWorkspaceSize(const aclTensorList *tensors, int64_t dim, aclTensor *out,
                                       uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return move_join("aclnnStack", tensors, dim, out, true, workspaceSize, executor);
}

/* ---------------------------------------------------------------- IndexSelect, GatherV2, GatherV3, Embedding, Take */

/* An int64 index tensor as the int32 words of its elements (*words: a view of the same memory, read
 * by dv_nn_exec_build before it returns), for --index64.  It must be contiguous. */
static int move_index_words(const dv_nn_call_t *c, const aclTensor *index, const char *index_what,
                            struct aclTensor *words)
{
    int64_t want = 1;
    for (int i = index->ndims - 1; i >= 0; i--) {
        if (index->dims[i] != 1 && index->strides[i] != want)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is an ACL_INT64 view that is not contiguous; dvsim "
                               "reads int64 indices as pairs of 32-bit words of a contiguous tensor (not supported)",
                               c->gws, index_what);
        want *= index->dims[i];
    }
    *words = *index;
    words->dtype = ACL_INT32;
    words->ndims = 1;
    words->dims[0] = (int64_t)(2 * dv_acl_tensor_elems(index));
    words->strides[0] = 1;
    words->offset = index->offset * 2;
    return ACLNN_SUCCESS;
}

/* out = the dim-slices of self (as [outer, len, inner]) that index names, onto index_select.  An
 * int32 index is bound as it is; an int64 one must be contiguous and is bound as the int32 words of
 * its elements (index_select --index64 reads each as two words), so the profile row shows it as
 * INT32 with twice the elements.  The caller checked out's shape. */
static int move_gather(dv_nn_call_t *c, const aclTensor *self, const char *self_what, int64_t outer, int64_t len,
                       int64_t inner, const aclTensor *index, const char *index_what, const aclTensor *out,
                       uint64_t *workspaceSize, aclOpExecutor **executor)
{
    const uint64_t n = dv_acl_tensor_elems(index);
    const bool i64 = index->dtype == ACL_INT64;
    if (n > 0 && len == 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %llu indices but no slice to select from", c->gws,
                           index_what, (unsigned long long)n);
    struct aclTensor words;
    if (i64) {
        int rc = move_index_words(c, index, index_what, &words);
        if (rc)
            return rc;
        index = &words;
    }
    c->empty = outer * inner * (int64_t)n == 0;
    dv_nn_call_param(c, "shape", "%lldx%lldx%lld", (long long)outer, (long long)len, (long long)inner);
    dv_nn_call_param(c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(self->dtype)->dv));
    dv_nn_call_param(c, "index", "%llu", (unsigned long long)n);
    if (i64)
        dv_nn_call_param(c, "index64", "on");
    dv_nn_call_tensor(c, self, self_what, "x", true);
    dv_nn_call_tensor(c, index, index_what, "index", true);
    dv_nn_call_tensor(c, out, "out", "y", false);
    return dv_nn_exec_build(c, workspaceSize, executor);
}

/* The checks of self (what), index and out every gather takes. */
static int move_gather_start(dv_nn_call_t *c, const aclTensor *self, const char *what, const aclTensor *index,
                             const char *index_what, const aclTensor *out, uint64_t *workspaceSize,
                             aclOpExecutor **executor)
{
    int rc;
    if ((rc = dv_nn_call_start(c, workspaceSize, executor)) || (rc = move_tensor(c, self, what)) ||
        (rc = move_tensor(c, out, "out")) || (rc = dv_nn_check_same_dtype(c, self, what, out, "out")) ||
        (rc = dv_nn_get_tensor(c, index, index_what)) || (rc = dv_nn_check_plain(c, index, index_what)))
        return rc;
    if (index->dtype != ACL_INT32 && index->dtype != ACL_INT64)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s; indices are ACL_INT32 or ACL_INT64", c->gws,
                           index_what, dv_nn_dtype_name(index->dtype));
    return ACLNN_SUCCESS;
}

/* GatherV2 and the forms on it: out = self's dims before dim, index's dims, self's dims after dim
 * (index_1d: IndexSelect, index 0-D or 1-D and out keeps self's rank). */
static int move_gather_dim(const char *api, const aclTensor *self, int64_t dim, const aclTensor *index,
                           const aclTensor *out, bool index_1d, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    dv_nn_call_t c;
    int rc, d = 0;
    dv_nn_call_init_row(&c, api);
    if ((rc = move_gather_start(&c, self, "self", index, "index", out, workspaceSize, executor)))
        return rc;
    if (self->ndims == 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: self is 0-dimensional; selecting needs a dimension", c.gws);
    if ((rc = move_dim(c.gws, "dim", dim, self->ndims, 0, &d)))
        return rc;
    if (index_1d && index->ndims > 1)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: index has %d dimensions; it must be 0-D or 1-D", c.gws,
                           index->ndims);
    int64_t want[DV_ACL_MAX_DIMS] = {0};
    int nd = 0;
    for (int i = 0; i < self->ndims; i++) {
        if (i != d)
            want[nd++] = self->dims[i];
        else if (index_1d)
            want[nd++] = (int64_t)dv_acl_tensor_elems(index);
        else
            for (int j = 0; j < index->ndims; j++) {
                if (nd == DV_ACL_MAX_DIMS)
                    return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: out would have more than %d dimensions", c.gws,
                                       DV_ACL_MAX_DIMS);
                want[nd++] = index->dims[j];
            }
    }
    if ((rc = move_out_shape(c.gws, out, "out", want, nd, "selecting along dim with index")))
        return rc;
    int64_t outer, len, inner;
    move_view(self, d, &outer, &len, &inner);
    return move_gather(&c, self, "self", outer, len, inner, index, "index", out, workspaceSize, executor);
}

aclnnStatus aclnnIndexSelectGetWorkspaceSize(const aclTensor *self, int64_t dim, const aclTensor *index,
                                             aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return move_gather_dim("aclnnIndexSelect", self, dim, index, out, true, workspaceSize, executor);
}

aclnnStatus aclnnGatherV2GetWorkspaceSize(const aclTensor *self, int64_t dim, const aclTensor *index, aclTensor *out,
                                          uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return move_gather_dim("aclnnGatherV2", self, dim, index, out, false, workspaceSize, executor);
}

/* mode chooses CANN's kernel, not the result: any value is taken. */
aclnnStatus aclnnGatherV3GetWorkspaceSize(const aclTensor *self, int64_t dim, const aclTensor *index,
                                          int64_t batchDims, int64_t mode, aclTensor *out, uint64_t *workspaceSize,
                                          aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    (void)mode;
    if (batchDims != 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "aclnnGatherV3GetWorkspaceSize: batchDims is %lld; dvsim gathers "
                           "with batchDims 0 only (not supported)", (long long)batchDims);
    return move_gather_dim("aclnnGatherV3", self, dim, index, out, false, workspaceSize, executor);
}

aclnnStatus aclnnEmbeddingGetWorkspaceSize(const aclTensor *weight, const aclTensor *indices, const aclTensor *out,
                                           uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc;
    dv_nn_call_init_row(&c, "aclnnEmbedding");
    if ((rc = move_gather_start(&c, weight, "weight", indices, "indices", out, workspaceSize, executor)))
        return rc;
    if (weight->ndims != 2)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: weight has %d dimensions; it must be 2-D [rows, embedding "
                           "size]", c.gws, weight->ndims);
    int64_t want[DV_ACL_MAX_DIMS] = {0};
    if (indices->ndims + 1 > DV_ACL_MAX_DIMS)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: out would have more than %d dimensions", c.gws,
                           DV_ACL_MAX_DIMS);
    for (int j = 0; j < indices->ndims; j++)
        want[j] = indices->dims[j];
    want[indices->ndims] = weight->dims[1];
    if ((rc = move_out_shape(c.gws, out, "out", want, indices->ndims + 1, "the rows indices names")))
        return rc;
    return move_gather(&c, weight, "weight", 1, weight->dims[0], weight->dims[1], indices, "indices", out,
                       workspaceSize, executor);
}

aclnnStatus aclnnTakeGetWorkspaceSize(const aclTensor *self, const aclTensor *index, aclTensor *out,
                                      uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc;
    dv_nn_call_init_row(&c, "aclnnTake");
    if ((rc = move_gather_start(&c, self, "self", index, "index", out, workspaceSize, executor)))
        return rc;
    if ((rc = move_out_shape(c.gws, out, "out", index->dims, index->ndims, "index's shape")))
        return rc;
    return move_gather(&c, self, "self", 1, (int64_t)dv_acl_tensor_elems(self), 1, index, "index", out,
                       workspaceSize, executor);
}

/* ---------------------------------------------------------------- Repeat, RepeatInterleaveInt(WithDim) */

/* out = x (dims d, n of them) tiled by r onto tile, after merging each dim into the one before it
 * while it is not repeated (and dropping a leading 1 x 1). */
static int move_tile(dv_nn_call_t *c, const aclTensor *self, const int64_t *d, const int64_t *r, int n,
                     const aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    int64_t md[DV_ACL_MAX_DIMS + 1], mr[DV_ACL_MAX_DIMS + 1];
    int m = 0;
    for (int j = 0; j < n; j++) {
        if (m > 0 && r[j] == 1) {
            md[m - 1] *= d[j];
        } else {
            md[m] = d[j];
            mr[m++] = r[j];
        }
    }
    if (m > 1 && md[0] == 1 && mr[0] == 1) {
        memmove(md, md + 1, (size_t)(m - 1) * sizeof md[0]);
        memmove(mr, mr + 1, (size_t)(m - 1) * sizeof mr[0]);
        m--;
    }
    enum { TILE_DIMS = 6 }; /* the library's --shape (DV_SHAPE_MAX) */
    if (m > TILE_DIMS)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: the repeats leave %d dims after merging the unrepeated "
                           "ones; dvsim's tile takes at most %d (not supported)", c->gws, m, TILE_DIMS);
    char shape[160], reps[160];
    size_t a = 0, b = 0;
    for (int j = 0; j < m; j++) {
        a += (size_t)snprintf(shape + a, sizeof shape - a, "%s%lld", j ? "x" : "", (long long)md[j]);
        b += (size_t)snprintf(reps + b, sizeof reps - b, "%s%lld", j ? "x" : "", (long long)mr[j]);
    }
    c->empty = dv_acl_tensor_elems(out) == 0;
    dv_nn_call_param(c, "shape", "%s", shape);
    dv_nn_call_param(c, "repeats", "%s", reps);
    dv_nn_call_param(c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(self->dtype)->dv));
    dv_nn_call_tensor(c, self, "self", "x", true);
    dv_nn_call_tensor(c, out, "out", "y", false);
    return dv_nn_exec_build(c, workspaceSize, executor);
}

aclnnStatus aclnnRepeatGetWorkspaceSize(const aclTensor *self, const aclIntArray *repeats, aclTensor *out,
                                        uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc;
    dv_nn_call_init_row(&c, "aclnnRepeat");
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = move_tensor(&c, self, "self")) ||
        (rc = move_tensor(&c, out, "out")) || (rc = dv_nn_check_same_dtype(&c, self, "self", out, "out")))
        return rc;
    if (!repeats)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: repeats is NULL", c.gws);
    if (!dv_acl_handle_is(repeats, DV_ACL_MAGIC_INT_ARRAY))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: repeats is not a live aclIntArray", c.gws);
    const int n = (int)repeats->size;
    if (repeats->size < (uint64_t)self->ndims || n > DV_ACL_MAX_DIMS)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: repeats has %llu entries; it needs %d (self's dims) to %d",
                           c.gws, (unsigned long long)repeats->size, self->ndims, DV_ACL_MAX_DIMS);
    int64_t d[DV_ACL_MAX_DIMS] = {0}, want[DV_ACL_MAX_DIMS] = {0};
    for (int j = 0; j < n; j++) {
        if (repeats->v[j] < 0)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: repeats[%d] is %lld; repeats are not negative", c.gws, j,
                               (long long)repeats->v[j]);
        d[j] = j < n - self->ndims ? 1 : self->dims[j - (n - self->ndims)];
        want[j] = d[j] * repeats->v[j];
    }
    if ((rc = move_out_shape(c.gws, out, "out", want, n, "self repeated")))
        return rc;
    if (n == 0 || dv_acl_tensor_elems(out) == 0) {
        c.empty = true;
        dv_nn_call_tensor(&c, out, "out", "y", false);
        return dv_nn_exec_build(&c, workspaceSize, executor);
    }
    return move_tile(&c, self, d, repeats->v, n, out, workspaceSize, executor);
}

/* RepeatInterleaveInt (has_dim false: self flattened) and ...WithDim. */
static int move_interleave(const char *api, const aclTensor *self, int64_t repeats, bool has_dim, int64_t dim,
                           int64_t outputSize, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    dv_nn_call_t c;
    int rc, d = 0;
    dv_nn_call_init_row(&c, api);
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = move_tensor(&c, self, "self")) ||
        (rc = move_tensor(&c, out, "out")) || (rc = dv_nn_check_same_dtype(&c, self, "self", out, "out")))
        return rc;
    if (repeats < 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: repeats is %lld; it is not negative", c.gws,
                           (long long)repeats);
    int64_t outer = 1, len = (int64_t)dv_acl_tensor_elems(self), inner = 1;
    int64_t want[DV_ACL_MAX_DIMS] = {0};
    int nd = 1;
    if (has_dim) {
        if (self->ndims == 0)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: self is 0-dimensional; repeating along dim needs a "
                               "dimension", c.gws);
        if ((rc = move_dim(c.gws, "dim", dim, self->ndims, 0, &d)))
            return rc;
        move_view(self, d, &outer, &len, &inner);
        nd = self->ndims;
        for (int j = 0; j < nd; j++)
            want[j] = j == d ? len * repeats : self->dims[j];
    } else {
        want[0] = len * repeats;
    }
    if (outputSize != len * repeats)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: outputSize is %lld; %lld elements repeated %lld times give "
                           "%lld", c.gws, (long long)outputSize, (long long)len, (long long)repeats,
                           (long long)(len * repeats));
    if ((rc = move_out_shape(c.gws, out, "out", want, nd, "self repeated")))
        return rc;
    if (dv_acl_tensor_elems(out) == 0) {
        c.empty = true;
        dv_nn_call_tensor(&c, out, "out", "y", false);
        return dv_nn_exec_build(&c, workspaceSize, executor);
    }
    const int64_t dd[2] = {outer * len, inner}, rr[2] = {1, repeats};
    return move_tile(&c, self, dd, rr, 2, out, workspaceSize, executor);
}

aclnnStatus aclnnRepeatInterleaveIntGetWorkspaceSize(const aclTensor *self, int64_t repeats, int64_t outputSize,
                                                     aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return move_interleave("aclnnRepeatInterleaveInt", self, repeats, false, 0, outputSize, out, workspaceSize,
                           executor);
}

aclnnStatus aclnnRepeatInterleaveIntWithDimGetWorkspaceSize(const aclTensor *self, int64_t repeats, int64_t dim,
                                                            int64_t outputSize, aclTensor *out,
                                                            uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return move_interleave("aclnnRepeatInterleaveIntWithDim", self, repeats, true, dim, outputSize, out,
                           workspaceSize, executor);
}

/* ---------------------------------------------------------------- Tril, Triu */

/* out (= self in place when out is NULL) = the lower or upper triangle of self. */
static int move_trilu(const char *api, const aclTensor *self, const char *what, int64_t diagonal, const aclTensor *out,
                      bool upper, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    dv_nn_call_t c;
    int rc;
    dv_nn_call_init_row(&c, api);
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = move_tensor(&c, self, what)))
        return rc;
    if (out && ((rc = move_tensor(&c, out, "out")) || (rc = dv_nn_check_same_dtype(&c, self, what, out, "out")) ||
                (rc = move_out_shape(c.gws, out, "out", self->dims, self->ndims, "self's shape"))))
        return rc;
    if (self->ndims < 2)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %d dimension%s; a triangle needs at least 2", c.gws,
                           what, self->ndims, self->ndims == 1 ? "" : "s");
    char shape[160];
    size_t a = 0;
    for (int j = 0; j < self->ndims; j++)
        a += (size_t)snprintf(shape + a, sizeof shape - a, "%s%lld", j ? "x" : "", (long long)self->dims[j]);
    /* a diagonal beyond the matrix keeps all or nothing: the library's range holds any that matters */
    const int64_t lim = self->dims[self->ndims - 1] + self->dims[self->ndims - 2];
    const int64_t dg = diagonal > lim ? lim : diagonal < -lim ? -lim : diagonal;
    c.empty = dv_acl_tensor_elems(self) == 0;
    dv_nn_call_param(&c, "shape", "%s", shape);
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(self->dtype)->dv));
    dv_nn_call_param(&c, "diagonal", "%lld", (long long)dg);
    if (upper)
        dv_nn_call_param(&c, "upper", "on");
    dv_nn_call_tensor(&c, self, what, "x", true);
    dv_nn_call_tensor(&c, out ? out : self, out ? "out" : what, "y", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}

aclnnStatus aclnnTrilGetWorkspaceSize(const aclTensor *self, int64_t diagonal, aclTensor *out, uint64_t *workspaceSize,
                                      aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return move_trilu("aclnnTril", self, "self", diagonal, out, false, workspaceSize, executor);
}

aclnnStatus aclnnInplaceTrilGetWorkspaceSize(const aclTensor *selfRef, int64_t diagonal, uint64_t *workspaceSize,
                                             aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return move_trilu("aclnnInplaceTril", selfRef, "selfRef", diagonal, NULL, false, workspaceSize, executor);
}

aclnnStatus aclnnTriuGetWorkspaceSize(const aclTensor *self, int64_t diagonal, aclTensor *out, uint64_t *workspaceSize,
                                      aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return move_trilu("aclnnTriu", self, "self", diagonal, out, true, workspaceSize, executor);
}

aclnnStatus aclnnInplaceTriuGetWorkspaceSize(aclTensor *selfRef, int64_t diagonal, uint64_t *workspaceSize,
                                             aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return move_trilu("aclnnInplaceTriu", selfRef, "selfRef", diagonal, NULL, true, workspaceSize, executor);
}

/* ---------------------------------------------------------------- Roll, Flip */

/* An aclIntArray parameter: live, or the status. */
static int move_int_array(const char *gws, const aclIntArray *a, const char *what)
{
    if (!a)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: %s is NULL", gws, what);
    if (!dv_acl_handle_is(a, DV_ACL_MAGIC_INT_ARRAY))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is not a live aclIntArray", gws, what);
    return ACLNN_SUCCESS;
}

aclnnStatus aclnnRollGetWorkspaceSize(const aclTensor *x, const aclIntArray *shifts, const aclIntArray *dims,
                                      aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc;
    dv_nn_call_init_row(&c, "aclnnRoll");
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = move_tensor(&c, x, "x")) ||
        (rc = move_tensor(&c, out, "out")) || (rc = dv_nn_check_same_dtype(&c, x, "x", out, "out")) ||
        (rc = move_out_shape(c.gws, out, "out", x->dims, x->ndims, "x's shape")) ||
        (rc = move_int_array(c.gws, shifts, "shifts")) || (rc = move_int_array(c.gws, dims, "dims")))
        return rc;
    const int64_t n = (int64_t)dv_acl_tensor_elems(x);
    int64_t outer = 1, len = n, inner = 1, shift = 0;
    if (dims->size == 0) {
        if (shifts->size != 1)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: dims is empty, so shifts must have one entry (it has "
                               "%llu)", c.gws, (unsigned long long)shifts->size);
        shift = n ? ((shifts->v[0] % n) + n) % n : 0;
    } else {
        if (shifts->size != dims->size)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: shifts has %llu entries and dims %llu; they must match",
                               c.gws, (unsigned long long)shifts->size, (unsigned long long)dims->size);
        int64_t total[DV_ACL_MAX_DIMS] = {0};
        for (uint64_t i = 0; i < dims->size; i++) {
            int d = 0;
            if ((rc = move_dim(c.gws, "a dim", dims->v[i], x->ndims, 0, &d)))
                return rc;
            const int64_t l = x->ndims ? x->dims[d] : 1;
            total[d] = l ? (((total[d] + shifts->v[i]) % l) + l) % l : 0;
        }
        int rolled = -1;
        for (int d = 0; d < (x->ndims ? x->ndims : 1); d++) {
            if (!total[d])
                continue;
            if (rolled >= 0)
                return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: x rolls along dims %d and %d; dvsim rolls along "
                                   "one dim per call (not supported)", c.gws, rolled, d);
            rolled = d;
        }
        if (rolled >= 0) {
            move_view(x, rolled, &outer, &len, &inner);
            shift = total[rolled];
        }
    }
    c.empty = n == 0;
    dv_nn_call_param(&c, "shape", "%lldx%lldx%lld", (long long)outer, (long long)len, (long long)inner);
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(x->dtype)->dv));
    dv_nn_call_param(&c, "shift", "%lld", (long long)shift);
    dv_nn_call_tensor(&c, x, "x", "x", true);
    dv_nn_call_tensor(&c, out, "out", "y", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}

aclnnStatus aclnnFlipGetWorkspaceSize(const aclTensor *self, const aclIntArray *dims, aclTensor *out,
                                      uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc;
    dv_nn_call_init_row(&c, "aclnnFlip");
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = move_tensor(&c, self, "self")) ||
        (rc = move_tensor(&c, out, "out")) || (rc = dv_nn_check_same_dtype(&c, self, "self", out, "out")) ||
        (rc = move_out_shape(c.gws, out, "out", self->dims, self->ndims, "self's shape")) ||
        (rc = move_int_array(c.gws, dims, "dims")))
        return rc;
    bool flag[DV_ACL_MAX_DIMS] = {false};
    for (uint64_t i = 0; i < dims->size; i++) {
        int d = 0;
        if ((rc = move_dim(c.gws, "a dim", dims->v[i], self->ndims, 0, &d)))
            return rc;
        if (self->ndims && flag[d])
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: dims names dim %d twice", c.gws, d);
        flag[d] = self->ndims > 0;
    }
    /* merge: dims of one length drop, adjacent dims of the same kind join */
    int64_t md[DV_ACL_MAX_DIMS + 1];
    bool mf[DV_ACL_MAX_DIMS + 1];
    int m = 0;
    for (int j = 0; j < self->ndims; j++) {
        if (self->dims[j] == 1)
            continue;
        if (m > 0 && mf[m - 1] == flag[j]) {
            md[m - 1] *= self->dims[j];
        } else {
            md[m] = self->dims[j];
            mf[m++] = flag[j];
        }
    }
    if (m == 0) {
        md[m] = 1;
        mf[m++] = false;
    }
    /* a kept last dim is rows of at most 4 KB (a divisor of its length): the library keeps a row in UB */
    if (!mf[m - 1] && m < DV_ACL_MAX_DIMS + 1) {
        const int64_t w = md[m - 1], esz = (int64_t)dv_acl_dtype_info(self->dtype)->size;
        int64_t b = w;
        while (b * esz > 4096 && b > 1) {
            int64_t q = 2;
            while (q <= b && b % q)
                q++;
            b /= q;
        }
        if (b != w) {
            md[m - 1] = w / b;
            md[m] = b;
            mf[m++] = false;
        }
    }
    enum { FLIP_DIMS = 6 };
    if (m > FLIP_DIMS)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: the flip leaves %d dims after merging; dvsim's flip takes at "
                           "most %d (not supported)", c.gws, m, FLIP_DIMS);
    char shape[160], flips[64];
    size_t a = 0, b = 0;
    for (int j = 0; j < m; j++) {
        a += (size_t)snprintf(shape + a, sizeof shape - a, "%s%lld", j ? "x" : "", (long long)md[j]);
        b += (size_t)snprintf(flips + b, sizeof flips - b, "%s%d", j ? "x" : "", mf[j] ? 1 : 0);
    }
    c.empty = dv_acl_tensor_elems(self) == 0;
    dv_nn_call_param(&c, "shape", "%s", shape);
    dv_nn_call_param(&c, "flip", "%s", flips);
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(self->dtype)->dv));
    dv_nn_call_tensor(&c, self, "self", "x", true);
    dv_nn_call_tensor(&c, out, "out", "y", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}

/* ---------------------------------------------------------------- ConstantPadNd */

aclnnStatus aclnnConstantPadNdGetWorkspaceSize(const aclTensor *self, const aclIntArray *pad, const aclScalar *value,
                                               aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc;
    dv_nn_call_init_row(&c, "aclnnConstantPadNd");
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = move_tensor(&c, self, "self")) ||
        (rc = move_tensor(&c, out, "out")) || (rc = dv_nn_check_same_dtype(&c, self, "self", out, "out")) ||
        (rc = move_int_array(c.gws, pad, "pad")))
        return rc;
    if (!value)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: value is NULL", c.gws);
    if (!dv_acl_handle_is(value, DV_ACL_MAGIC_SCALAR))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: value is not a live aclScalar", c.gws);
    const int n = self->ndims;
    if (n == 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: self is 0-dimensional; padding needs a dimension", c.gws);
    if (pad->size % 2 || pad->size > 2 * (uint64_t)n)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: pad has %llu entries; it takes (before, after) pairs, at "
                           "most %d for self's %d dims", c.gws, (unsigned long long)pad->size, 2 * n, n);
    int64_t before[DV_ACL_MAX_DIMS] = {0}, after[DV_ACL_MAX_DIMS] = {0}, want[DV_ACL_MAX_DIMS] = {0};
    for (uint64_t i = 0; i < pad->size; i++) {
        if (pad->v[i] < 0)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: pad[%llu] is %lld; dvsim pads, it does not crop with "
                               "negative pads (not supported)", c.gws, (unsigned long long)i, (long long)pad->v[i]);
        const int d = n - 1 - (int)(i / 2);
        *(i % 2 ? &after[d] : &before[d]) = pad->v[i];
    }
    char shape[160], bs[160], as[160];
    size_t a = 0, b = 0, e = 0;
    for (int j = 0; j < n; j++) {
        want[j] = self->dims[j] + before[j] + after[j];
        a += (size_t)snprintf(shape + a, sizeof shape - a, "%s%lld", j ? "x" : "", (long long)self->dims[j]);
        b += (size_t)snprintf(bs + b, sizeof bs - b, "%s%lld", j ? "x" : "", (long long)before[j]);
        e += (size_t)snprintf(as + e, sizeof as - e, "%s%lld", j ? "x" : "", (long long)after[j]);
    }
    if ((rc = move_out_shape(c.gws, out, "out", want, n, "self padded")))
        return rc;
    if (dv_acl_tensor_elems(self) == 0 && dv_acl_tensor_elems(out) > 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: self has no elements; padding an empty tensor is not "
                           "supported by dvsim", c.gws);
    c.empty = dv_acl_tensor_elems(out) == 0;
    dv_nn_call_param(&c, "shape", "%s", shape);
    dv_nn_call_param(&c, "before", "%s", bs);
    dv_nn_call_param(&c, "after", "%s", as);
    dv_nn_call_param(&c, "value", "%.17g", value->value);
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(self->dtype)->dv));
    dv_nn_call_tensor(&c, self, "self", "x", true);
    dv_nn_call_tensor(&c, out, "out", "y", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}

/* ---------------------------------------------------------------- Eye */

aclnnStatus aclnnEyeGetWorkspaceSize(int64_t n, int64_t m, aclTensor *out, uint64_t *workspaceSize,
                                     aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc;
    dv_nn_call_init_row(&c, "aclnnEye");
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = move_tensor(&c, out, "out")))
        return rc;
    if (n < 0 || m < 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: n is %lld and m %lld; neither may be negative", c.gws,
                           (long long)n, (long long)m);
    const int64_t want[2] = {n, m};
    if ((rc = move_out_shape(c.gws, out, "out", want, 2, "an n x m identity")))
        return rc;
    c.empty = n == 0 || m == 0;
    dv_nn_call_param(&c, "shape", "%lldx%lld", (long long)n, (long long)m);
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(out->dtype)->dv));
    dv_nn_call_tensor(&c, out, "out", "y", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}

/* ---------------------------------------------------------------- OneHot */

aclnnStatus aclnnOneHotGetWorkspaceSize(const aclTensor *self, int numClasses, const aclTensor *onValue,
                                        const aclTensor *offValue, int64_t axis, aclTensor *out,
                                        uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc;
    dv_nn_call_init_row(&c, "aclnnOneHot");
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, self, "self")) ||
        (rc = dv_nn_check_plain(&c, self, "self")) || (rc = move_tensor(&c, out, "out")) ||
        (rc = move_tensor(&c, onValue, "onValue")) || (rc = move_tensor(&c, offValue, "offValue")) ||
        (rc = dv_nn_check_same_dtype(&c, onValue, "onValue", out, "out")) ||
        (rc = dv_nn_check_same_dtype(&c, offValue, "offValue", out, "out")))
        return rc;
    if (self->dtype != ACL_INT32 && self->dtype != ACL_INT64)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: self has dtype %s; indices are ACL_INT32 or ACL_INT64", c.gws,
                           dv_nn_dtype_name(self->dtype));
    if (dv_acl_tensor_elems(onValue) != 1 || dv_acl_tensor_elems(offValue) != 1)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: onValue and offValue hold one element each (%llu and %llu "
                           "given)", c.gws, (unsigned long long)dv_acl_tensor_elems(onValue),
                           (unsigned long long)dv_acl_tensor_elems(offValue));
    if (numClasses < 1)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: numClasses is %d; dvsim needs it given, at least 1", c.gws,
                           numClasses);
    if (axis != -1 && axis != self->ndims)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: axis is %lld; dvsim puts the classes last (axis -1 or %d; "
                           "others are not supported)", c.gws, (long long)axis, self->ndims);
    if (self->ndims + 1 > DV_ACL_MAX_DIMS)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: out would have more than %d dimensions", c.gws,
                           DV_ACL_MAX_DIMS);
    int64_t want[DV_ACL_MAX_DIMS] = {0};
    for (int j = 0; j < self->ndims; j++)
        want[j] = self->dims[j];
    want[self->ndims] = numClasses;
    if ((rc = move_out_shape(c.gws, out, "out", want, self->ndims + 1, "one-hot rows of self")))
        return rc;
    const uint64_t n = dv_acl_tensor_elems(self);
    const aclTensor *index = self;
    struct aclTensor words;
    if (self->dtype == ACL_INT64) {
        if ((rc = move_index_words(&c, self, "self", &words)))
            return rc;
        index = &words;
    }
    c.empty = n == 0;
    dv_nn_call_param(&c, "index", "%llu", (unsigned long long)n);
    dv_nn_call_param(&c, "classes", "%d", numClasses);
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(out->dtype)->dv));
    if (self->dtype == ACL_INT64)
        dv_nn_call_param(&c, "index64", "on");
    dv_nn_call_tensor(&c, index, "self", "index", true);
    dv_nn_call_tensor(&c, onValue, "onValue", "on", true);
    dv_nn_call_tensor(&c, offValue, "offValue", "off", true);
    dv_nn_call_tensor(&c, out, "out", "y", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}

/* ---------------------------------------------------------------- Gather */

aclnnStatus aclnnGatherGetWorkspaceSize(const aclTensor *self, const int64_t dim, const aclTensor *index, aclTensor *out,
                                        uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc, d = 0;
    dv_nn_call_init_row(&c, "aclnnGather");
    if ((rc = move_gather_start(&c, self, "self", index, "index", out, workspaceSize, executor)))
        return rc;
    if (self->ndims == 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: self is 0-dimensional; gathering needs a dimension", c.gws);
    if ((rc = move_dim(c.gws, "dim", dim, self->ndims, 0, &d)))
        return rc;
    if (index->ndims != self->ndims)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: index has %d dimensions, self %d; they must match", c.gws,
                           index->ndims, self->ndims);
    for (int j = 0; j < self->ndims; j++)
        if (j != d && index->dims[j] != self->dims[j])
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: index has %lld in dim %d, self %lld; dvsim gathers with "
                               "index equal to self but along dim (a smaller index is not supported)", c.gws,
                               (long long)index->dims[j], j, (long long)self->dims[j]);
    if ((rc = move_out_shape(c.gws, out, "out", index->dims, index->ndims, "index's shape")))
        return rc;
    int64_t outer, len, inner;
    move_view(self, d, &outer, &len, &inner);
    const uint64_t n = dv_acl_tensor_elems(index);
    if (n > 0 && len == 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: index has %llu elements but self has no slice to gather from",
                           c.gws, (unsigned long long)n);
    const aclTensor *ix = index;
    struct aclTensor words;
    if (index->dtype == ACL_INT64) {
        if ((rc = move_index_words(&c, index, "index", &words)))
            return rc;
        ix = &words;
    }
    c.empty = n == 0;
    dv_nn_call_param(&c, "shape", "%lldx%lldx%lld", (long long)outer, (long long)len, (long long)inner);
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(self->dtype)->dv));
    dv_nn_call_param(&c, "index", "%lld", (long long)index->dims[d]);
    if (index->dtype == ACL_INT64)
        dv_nn_call_param(&c, "index64", "on");
    dv_nn_call_tensor(&c, self, "self", "x", true);
    dv_nn_call_tensor(&c, ix, "index", "index", true);
    dv_nn_call_tensor(&c, out, "out", "y", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}

/* ---------------------------------------------------------------- StridedSlice */

aclnnStatus aclnnStridedSliceGetWorkspaceSize(const aclTensor *self, const aclIntArray *begin, const aclIntArray *end,
                                              const aclIntArray *strides, int64_t beginMask, int64_t endMask,
                                              int64_t ellipsisMask, int64_t newAxisMask, int64_t shrinkAxisMask,
                                              aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc;
    dv_nn_call_init_row(&c, "aclnnStridedSlice");
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = move_tensor(&c, self, "self")) ||
        (rc = move_tensor(&c, out, "out")) || (rc = dv_nn_check_same_dtype(&c, self, "self", out, "out")) ||
        (rc = move_int_array(c.gws, begin, "begin")) || (rc = move_int_array(c.gws, end, "end")) ||
        (rc = move_int_array(c.gws, strides, "strides")))
        return rc;
    if (ellipsisMask || newAxisMask)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: ellipsisMask is %lld and newAxisMask %lld; dvsim takes "
                           "neither (not supported)", c.gws, (long long)ellipsisMask, (long long)newAxisMask);
    const int n = self->ndims;
    if (begin->size != end->size || begin->size != strides->size || begin->size > (uint64_t)n)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: begin, end and strides have %llu, %llu and %llu entries; "
                           "they must be one length, at most self's %d dims", c.gws,
                           (unsigned long long)begin->size, (unsigned long long)end->size,
                           (unsigned long long)strides->size, n);
    int64_t st[DV_ACL_MAX_DIMS], sp[DV_ACL_MAX_DIMS], cnt[DV_ACL_MAX_DIMS], want[DV_ACL_MAX_DIMS] = {0};
    int nw = 0, sliced[2] = {-1, -1}, ns = 0;
    for (int j = 0; j < n; j++) {
        const int64_t len = self->dims[j];
        st[j] = 0, sp[j] = 1, cnt[j] = len;
        if ((uint64_t)j < begin->size) {
            sp[j] = strides->v[j];
            if (sp[j] < 1)
                return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: strides[%d] is %lld; dvsim takes positive strides "
                                   "(others are not supported)", c.gws, j, (long long)sp[j]);
            int64_t b = (beginMask >> j) & 1 ? 0 : begin->v[j], e = (endMask >> j) & 1 ? len : end->v[j];
            b = b < 0 ? b + len : b;
            e = e < 0 ? e + len : e;
            b = b < 0 ? 0 : b > len ? len : b;
            e = e < 0 ? 0 : e > len ? len : e;
            if ((shrinkAxisMask >> j) & 1)
                e = b + 1 <= len ? b + 1 : b;
            st[j] = b;
            cnt[j] = e > b ? (e - b + sp[j] - 1) / sp[j] : 0;
        }
        if (!((shrinkAxisMask >> j) & 1) || (uint64_t)j >= begin->size)
            want[nw++] = cnt[j];
        if (cnt[j] != len) {
            if (ns == 2)
                return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: more than two dims are sliced; dvsim slices one dim "
                                   "or the last two (not supported)", c.gws);
            sliced[ns++] = j;
        }
    }
    if ((rc = move_out_shape(c.gws, out, "out", want, nw, "the strided slice")))
        return rc;
    if (ns == 2 && !(sliced[1] == n - 1 && sliced[0] == n - 2))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: dims %d and %d are sliced; dvsim slices one dim or the last "
                           "two (not supported)", c.gws, sliced[0], sliced[1]);
    aclOpExecutor *e = NULL;
    if (ns < 2) {
        const int d = ns ? sliced[0] : 0;
        int64_t outer, len, inner;
        if (n == 0) {
            outer = len = inner = 1;
        } else {
            move_view(self, d, &outer, &len, &inner);
        }
        if ((rc = move_slice("aclnnStridedSlice", self, out, outer, len, inner, n ? st[d] : 0, n ? sp[d] : 1,
                             n ? cnt[d] : 1, &e)))
            return rc;
    } else {
        dv_nn_call_init_row(&c, "aclnnStridedSlice");
        int64_t planes = 1;
        for (int j = 0; j < n - 2; j++)
            planes *= self->dims[j];
        c.empty = dv_acl_tensor_elems(out) == 0;
        dv_nn_call_param(&c, "shape", "%lldx%lldx%lld", (long long)planes, (long long)self->dims[n - 2],
                         (long long)self->dims[n - 1]);
        dv_nn_call_param(&c, "start", "%lldx%lld", (long long)st[n - 2], (long long)st[n - 1]);
        dv_nn_call_param(&c, "step", "%lldx%lld", (long long)(cnt[n - 2] > 1 ? sp[n - 2] : 1),
                         (long long)(cnt[n - 1] > 1 ? sp[n - 1] : 1));
        dv_nn_call_param(&c, "size", "%lldx%lld", (long long)cnt[n - 2], (long long)cnt[n - 1]);
        dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(self->dtype)->dv));
        dv_nn_call_tensor(&c, self, "self", "x", true);
        dv_nn_call_tensor(&c, out, "out", "y", false);
        uint64_t ws;
        if ((rc = dv_nn_exec_build(&c, &ws, &e)))
            return rc;
    }
    *workspaceSize = e->workspace;
    *executor = e;
    return ACLNN_SUCCESS;
}
