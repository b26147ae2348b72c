/* tests/check_aclnn_move.c - the data-movement aclnn operators (acl/nnmove.c, acl/nnops.def section
 * s20-move): Cat, Stack, Slice, SplitTensor, SplitWithSize and Flatten against a plain-C reference,
 * byte for byte, on fp32, fp16 and int32 (both profiles for a part), and their errors. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "support/nnt.h"

#include "support/dvt.h"

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

enum { MAXE = 4096 };

static const aclDataType dts[] = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32};

/* n distinct elements of dtype dt (fp16: small normal numbers' bits, so every pattern is a
 * number), seeded so that tensors differ. */
static void fill_bytes(aclDataType dt, uint8_t *b, int64_t n, unsigned seed)
{
    for (int64_t i = 0; i < n; i++) {
        const uint32_t v = (uint32_t)(i * 7 + seed * 1000 + 1);
        if (dt == ACL_FLOAT16) {
            const uint16_t h = (uint16_t)(0x1000 + v % 0x5000);
            memcpy(b + i * 2, &h, 2);
        } else if (dt == ACL_FLOAT) {
            const float f = (float)v * 0.25f - 100.0f;
            memcpy(b + i * 4, &f, 4);
        } else {
            const int32_t x = (int32_t)v * -3;
            memcpy(b + i * 4, &x, 4);
        }
    }
}

/* A device tensor of fresh contents; host receives them. */
static nnt_dt_t mk(const int64_t *dims, int nd, aclDataType dt, unsigned seed, uint8_t *host)
{
    fill_bytes(dt, host, nnt_numel(dims, nd), seed);
    return nnt_mk(dims, nd, dt, ACL_FORMAT_ND, host);
}

/* A contiguous ACL_INT64 tensor of host's values (nnt_mk sizes the dtypes it knows). */
static nnt_dt_t mk64(const int64_t *dims, int nd, const int64_t *host)
{
    nnt_dt_t r;
    r.bytes = (size_t)nnt_numel(dims, nd) * 8;
    CK_OK(aclrtMalloc(&r.dev, r.bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CK_OK(aclrtMemcpy(r.dev, r.bytes, host, r.bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    r.t = aclCreateTensor(dims, (uint64_t)nd, ACL_INT64, NULL, 0, ACL_FORMAT_ND, dims, (uint64_t)nd, r.dev);
    ck_assert_msg(r.t != NULL, "aclCreateTensor: %s", aclGetRecentErrMsg());
    return r;
}

/* out (dims, nd) read back must equal want, byte for byte. */
static void ck_bytes(const char *what, const nnt_dt_t *t, const uint8_t *want, int64_t n, aclDataType dt)
{
    static uint8_t got[MAXE * 4];
    const size_t sz = nnt_dtype_size(dt);
    nnt_rd(t, got);
    for (int64_t i = 0; i < n; i++)
        ck_assert_msg(memcmp(got + i * sz, want + i * sz, sz) == 0, "%s: element %lld differs", what, (long long)i);
}

/* outer x len x inner of dims around d. */
static void view3(const int64_t *dims, int nd, int d, int64_t *o, int64_t *l, int64_t *in)
{
    *o = *in = 1;
    *l = dims[d];
    for (int i = 0; i < nd; i++)
        *(i < d ? o : i > d ? in : l) *= i == d ? 1 : dims[i];
}

/* The reference slice: n rows start, start + step, ... of [o, l, in] into dst. */
static void ref_slice(uint8_t *dst, const uint8_t *src, size_t sz, int64_t o, int64_t l, int64_t in, int64_t start,
                      int64_t step, int64_t n)
{
    for (int64_t a = 0; a < o; a++)
        for (int64_t j = 0; j < n; j++)
            memcpy(dst + (a * n + j) * in * (int64_t)sz, src + (a * l + start + j * step) * in * (int64_t)sz,
                   (size_t)in * sz);
}

START_TEST(test_aclnn_move_cat)
{
    const aclDataType dt = dts[_i];
    const size_t sz = nnt_dtype_size(dt);
    const int64_t d0[] = {2, 3, 4}, d1[] = {2, 1, 4}, d2[] = {2, 5, 4}, de[] = {0}, dz[] = {2, 0, 4}, dout[] = {2, 9, 4};
    static uint8_t h0[MAXE * 4], h1[MAXE * 4], h2[MAXE * 4], he[16], want[MAXE * 4];
    nnt_dt_t x0 = mk(d0, 3, dt, 1, h0), x1 = mk(d1, 3, dt, 2, h1), x2 = mk(d2, 3, dt, 3, h2);
    nnt_dt_t xe = nnt_mk(de, 1, dt, ACL_FORMAT_ND, he), xz = nnt_mk(dz, 3, dt, ACL_FORMAT_ND, he);
    nnt_dt_t out = nnt_mk(dout, 3, dt, ACL_FORMAT_ND, NULL);
    /* the legacy 1-D empty tensor and a [2,0,4] member take no part */
    aclTensor *v[] = {x0.t, xe.t, x1.t, xz.t, x2.t};
    aclTensorList *l = aclCreateTensorList((const aclTensor *const *)v, 5);
    const uint8_t *src[] = {h0, h1, h2};
    const int64_t lens[] = {3, 1, 5};
    for (int64_t a = 0, w = 0; a < 2; a++)
        for (int m = 0; m < 3; m++) {
            memcpy(want + w, src[m] + a * lens[m] * 4 * (int64_t)sz, (size_t)(lens[m] * 4) * sz);
            w += lens[m] * 4 * (int64_t)sz;
        }
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnCatGetWorkspaceSize(l, -2, out.t, &ws, &e));
    RUN(aclnnCat(NULL, ws, e, nnt_stream));
    ck_bytes("cat dim 1", &out, want, 72, dt);
    /* one member with elements: a copy */
    aclTensor *v1[] = {xe.t, x2.t};
    aclTensorList *l1 = aclCreateTensorList((const aclTensor *const *)v1, 2);
    nnt_dt_t o1 = nnt_mk(d2, 3, dt, ACL_FORMAT_ND, NULL);
    CK_OK(aclnnCatGetWorkspaceSize(l1, 1, o1.t, &ws, &e));
    RUN(aclnnCat(NULL, ws, e, nnt_stream));
    ck_bytes("cat of one", &o1, h2, 40, dt);
    /* errors: other dims differ, dim out of range, out's shape, more than four members, one dtype */
    aclTensor *vb[] = {x0.t, x1.t};
    aclTensorList *lb = aclCreateTensorList((const aclTensor *const *)vb, 2);
    CK_ERR(aclnnCatGetWorkspaceSize(lb, 0, out.t, &ws, &e), NN_INVALID, "cat needs every dim but dim equal");
    CK_ERR(aclnnCatGetWorkspaceSize(lb, 3, out.t, &ws, &e), NN_INVALID, "dim is 3; for 3 dimensions it must be in [-3, 2]");
    CK_ERR(aclnnCatGetWorkspaceSize(lb, 1, out.t, &ws, &e), NN_INVALID, "out has shape [2,9,4]; joining the tensors "
                                                                         "needs [2,4,4]");
    aclTensor *v5[] = {x0.t, x1.t, x2.t, x1.t, x0.t};
    aclTensorList *l5 = aclCreateTensorList((const aclTensor *const *)v5, 5);
    CK_ERR(aclnnCatGetWorkspaceSize(l5, 1, out.t, &ws, &e), NN_INVALID, "joins at most 4 (not supported)");
    CK_ERR(aclnnCatGetWorkspaceSize(NULL, 1, out.t, &ws, &e), NN_NULLPTR, "tensors");
    const int64_t d4[] = {2, 4, 4};
    nnt_dt_t o16 = nnt_mk(d4, 3, dt == ACL_FLOAT16 ? ACL_FLOAT : ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    CK_ERR(aclnnCatGetWorkspaceSize(lb, 1, o16.t, &ws, &e), NN_INVALID, "out");
    /* the test's process ends with it (fork mode): the lists and tensors are not destroyed one by one */
}
END_TEST

START_TEST(test_aclnn_move_stack)
{
    const aclDataType dt = dts[_i];
    const size_t sz = nnt_dtype_size(dt);
    const int64_t d[] = {3, 5};
    static uint8_t h0[MAXE * 4], h1[MAXE * 4], h2[MAXE * 4], want[MAXE * 4];
    nnt_dt_t x0 = mk(d, 2, dt, 4, h0), x1 = mk(d, 2, dt, 5, h1), x2 = mk(d, 2, dt, 6, h2);
    aclTensor *v[] = {x0.t, x1.t, x2.t};
    aclTensorList *l = aclCreateTensorList((const aclTensor *const *)v, 3);
    const uint8_t *src[] = {h0, h1, h2};
    uint64_t ws;
    aclOpExecutor *e;
    for (int dim = 0; dim < 3; dim++) {
        /* out[..., m, ...] = member m: outer = the dims before dim, inner the rest */
        int64_t dout[3], outer = 1, inner = 15;
        for (int j = 0, k = 0; j < 3; j++)
            dout[j] = j == dim ? 3 : d[k++];
        for (int j = 0; j < dim; j++)
            outer *= d[j], inner /= d[j];
        for (int64_t a = 0, w = 0; a < outer; a++)
            for (int m = 0; m < 3; m++, w += inner * (int64_t)sz)
                memcpy(want + w, src[m] + a * inner * (int64_t)sz, (size_t)inner * sz);
        nnt_dt_t out = nnt_mk(dout, 3, dt, ACL_FORMAT_ND, NULL);
        CK_OK(aclnnStackGetWorkspaceSize(l, dim == 2 ? -1 : dim, out.t, &ws, &e));
        RUN(aclnnStack(NULL, ws, e, nnt_stream));
        char what[32];
        snprintf(what, sizeof what, "stack dim %d", dim);
        ck_bytes(what, &out, want, 45, dt);
        if (dim == 0) {
            const int64_t d2[] = {3, 4};
            nnt_dt_t y = nnt_mk(d2, 2, dt, ACL_FORMAT_ND, NULL);
            aclTensor *vb[] = {x0.t, y.t};
            aclTensorList *lb = aclCreateTensorList((const aclTensor *const *)vb, 2);
            CK_ERR(aclnnStackGetWorkspaceSize(lb, 0, out.t, &ws, &e), NN_INVALID, "stack needs one shape");
            CK_ERR(aclnnStackGetWorkspaceSize(l, 3, out.t, &ws, &e), NN_INVALID, "must be in [-3, 2]");
            CK_ERR(aclnnStackGetWorkspaceSize(l, 2, out.t, &ws, &e), NN_INVALID, "stacking the tensors needs [3,5,3]");
        }
    }
}
END_TEST

/* Slice cases: dims, dim, start, end, step and the rows the reference takes. */
typedef struct slice_case {
    int nd;
    int64_t dims[3];
    int64_t dim, start, end, step;
} slice_case_t;

START_TEST(test_aclnn_move_slice)
{
    static const slice_case_t cases[] = {
        {3, {4, 6, 5}, 1, 1, 6, 2},       /* rows of 5 every 2 rows: a DMA gap */
        {3, {4, 6, 5}, -1, -4, 100, 2},   /* the last dim: columns picked by vtranspose */
        {2, {3, 40}, 1, 3, 39, 1},        /* a column run */
        {2, {7, 300}, 1, 5, 300, 130},    /* a column step beyond the vcopy block stride: rows of one */
        {1, {50}, 0, -50, -3, 3},         /* 1-D, negative bounds */
        {3, {2, 3, 4}, 0, 1, 2, 1},       /* the outer dim */
    };
    const aclDataType dt = dts[_i % 3];
    const size_t sz = nnt_dtype_size(dt);
    static uint8_t h[MAXE * 4], want[MAXE * 4];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const slice_case_t *k = &cases[c];
        const int d = (int)(k->dim < 0 ? k->dim + k->nd : k->dim);
        int64_t o, l, in;
        view3(k->dims, k->nd, d, &o, &l, &in);
        int64_t s = k->start < 0 ? k->start + l : k->start, t = k->end < 0 ? k->end + l : k->end;
        t = t > l ? l : t;
        const int64_t n = (t - s + k->step - 1) / k->step;
        int64_t dout[3];
        memcpy(dout, k->dims, sizeof dout);
        dout[d] = n;
        nnt_dt_t x = mk(k->dims, k->nd, dt, (unsigned)c + 1, h), out = nnt_mk(dout, k->nd, dt, ACL_FORMAT_ND, NULL);
        ref_slice(want, h, sz, o, l, in, s, k->step, n);
        uint64_t ws;
        aclOpExecutor *e;
        CK_OK(aclnnSliceGetWorkspaceSize(x.t, k->dim, k->start, k->end, k->step, out.t, &ws, &e));
        RUN(aclnnSlice(NULL, ws, e, nnt_stream));
        char what[32];
        snprintf(what, sizeof what, "slice case %zu", c);
        ck_bytes(what, &out, want, o * n * in, dt);
        if (c == 0) {
            CK_ERR(aclnnSliceGetWorkspaceSize(x.t, 1, 1, 6, 0, out.t, &ws, &e), NN_INVALID, "step is 0");
            CK_ERR(aclnnSliceGetWorkspaceSize(x.t, 1, 1, 5, 2, out.t, &ws, &e), NN_INVALID,
                   "self[1:5:2] along dim 1 needs [4,2,5]");
            CK_ERR(aclnnSliceGetWorkspaceSize(x.t, 3, 1, 5, 2, out.t, &ws, &e), NN_INVALID, "dim is 3");
            CK_ERR(aclnnSliceGetWorkspaceSize(NULL, 1, 1, 5, 2, out.t, &ws, &e), NN_NULLPTR, "self");
        }
    }
}
END_TEST

/* The split members of [7, 4] along dim 0 by 3 and of [2, 9] along dim 1 by {2, 3, 4}: each against
 * the reference slice. */
START_TEST(test_aclnn_move_split)
{
    const aclDataType dt = dts[_i];
    const size_t sz = nnt_dtype_size(dt);
    static uint8_t h[MAXE * 4], want[MAXE * 4];
    uint64_t ws;
    aclOpExecutor *e;
    const int64_t da[] = {7, 4}, a0[] = {3, 4}, a2[] = {1, 4};
    nnt_dt_t x = mk(da, 2, dt, 9, h);
    nnt_dt_t o0 = nnt_mk(a0, 2, dt, ACL_FORMAT_ND, NULL), o1 = nnt_mk(a0, 2, dt, ACL_FORMAT_ND, NULL);
    nnt_dt_t o2 = nnt_mk(a2, 2, dt, ACL_FORMAT_ND, NULL);
    aclTensor *vo[] = {o0.t, o1.t, o2.t};
    aclTensorList *lo = aclCreateTensorList((const aclTensor *const *)vo, 3);
    aclTensorList *lo2 = aclCreateTensorList((const aclTensor *const *)vo, 2);
    CK_OK(aclnnSplitTensorGetWorkspaceSize(x.t, 3, 0, lo, &ws, &e));
    RUN(aclnnSplitTensor(NULL, ws, e, nnt_stream));
    const nnt_dt_t *os[] = {&o0, &o1, &o2};
    for (int i = 0; i < 3; i++) {
        ref_slice(want, h, sz, 1, 7, 4, i * 3, 1, i < 2 ? 3 : 1);
        ck_bytes("split tensor", os[i], want, (i < 2 ? 3 : 1) * 4, dt);
    }
    CK_ERR(aclnnSplitTensorGetWorkspaceSize(x.t, 3, 0, lo2, &ws, &e), NN_INVALID,
           "out has 2 tensors; splitting 7 by 3 makes 3");
    CK_ERR(aclnnSplitTensorGetWorkspaceSize(x.t, 0, 0, lo, &ws, &e), NN_INVALID, "splitSections is 0");
    CK_ERR(aclnnSplitTensorGetWorkspaceSize(x.t, 3, 1, lo2, &ws, &e), NN_INVALID, "out[0] has shape [3,4]; dim-slices "
                                                                                   "0 to 3 of self needs [7,3]");
    CK_ERR(aclnnSplitTensorGetWorkspaceSize(x.t, 3, 0, NULL, &ws, &e), NN_NULLPTR, "out");

    const int64_t db[] = {2, 9}, b0[] = {2, 2}, b1[] = {2, 3}, b2[] = {2, 4}, sizes[] = {2, 3, 4}, bad[] = {2, 3, 3};
    nnt_dt_t y = mk(db, 2, dt, 10, h);
    nnt_dt_t p0 = nnt_mk(b0, 2, dt, ACL_FORMAT_ND, NULL), p1 = nnt_mk(b1, 2, dt, ACL_FORMAT_ND, NULL);
    nnt_dt_t p2 = nnt_mk(b2, 2, dt, ACL_FORMAT_ND, NULL);
    aclTensor *vp[] = {p0.t, p1.t, p2.t};
    aclTensorList *lp = aclCreateTensorList((const aclTensor *const *)vp, 3);
    aclIntArray *sa = aclCreateIntArray(sizes, 3), *sb = aclCreateIntArray(bad, 3);
    CK_OK(aclnnSplitWithSizeGetWorkspaceSize(y.t, sa, -1, lp, &ws, &e));
    RUN(aclnnSplitWithSize(NULL, ws, e, nnt_stream));
    const nnt_dt_t *ps[] = {&p0, &p1, &p2};
    for (int i = 0, off = 0; i < 3; off += (int)sizes[i++]) {
        ref_slice(want, h, sz, 2, 9, 1, off, 1, sizes[i]);
        ck_bytes("split with size", ps[i], want, 2 * sizes[i], dt);
    }
    CK_ERR(aclnnSplitWithSizeGetWorkspaceSize(y.t, sb, 1, lp, &ws, &e), NN_INVALID,
           "splitSize adds up to 8; dim 1 of self has 9");
    CK_ERR(aclnnSplitWithSizeGetWorkspaceSize(y.t, NULL, 1, lp, &ws, &e), NN_NULLPTR, "splitSize is NULL");
}
END_TEST

START_TEST(test_aclnn_move_flatten)
{
    const aclDataType dt = dts[_i];
    static uint8_t h[MAXE * 4];
    const int64_t d[] = {2, 3, 4}, f1[] = {2, 12}, f0[] = {1, 24};
    nnt_dt_t x = mk(d, 3, dt, 11, h);
    nnt_dt_t o1 = nnt_mk(f1, 2, dt, ACL_FORMAT_ND, NULL), o0 = nnt_mk(f0, 2, dt, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnFlattenGetWorkspaceSize(x.t, 1, o1.t, &ws, &e));
    RUN(aclnnFlatten(NULL, ws, e, nnt_stream));
    ck_bytes("flatten axis 1", &o1, h, 24, dt);
    CK_OK(aclnnFlattenGetWorkspaceSize(x.t, -3, o0.t, &ws, &e));
    RUN(aclnnFlatten(NULL, ws, e, nnt_stream));
    ck_bytes("flatten axis 0", &o0, h, 24, dt);
    /* int8 too (a tile copy takes every byte dtype) */
    int8_t b8[24], g8[24];
    for (int i = 0; i < 24; i++)
        b8[i] = (int8_t)(i * 11 - 100);
    nnt_dt_t x8 = nnt_mk(d, 3, ACL_INT8, ACL_FORMAT_ND, b8), o8 = nnt_mk(f1, 2, ACL_INT8, ACL_FORMAT_ND, NULL);
    CK_OK(aclnnFlattenGetWorkspaceSize(x8.t, 1, o8.t, &ws, &e));
    RUN(aclnnFlatten(NULL, ws, e, nnt_stream));
    nnt_rd(&o8, g8);
    ck_assert_mem_eq(g8, b8, sizeof b8);
    CK_ERR(aclnnFlattenGetWorkspaceSize(x.t, 2, o1.t, &ws, &e), NN_INVALID,
           "out has shape [2,12]; flattening at axis 2 needs [6,4]");
    CK_ERR(aclnnFlattenGetWorkspaceSize(x.t, 3, o1.t, &ws, &e), NN_INVALID, "axis is 3");
}
END_TEST

/* Cat and Slice on the 310 (loop 0) and the 910A (loop 1), which has no DataCopyPad: rows of whole
 * 32-B blocks run on both, other rows only on the 310 (the 910A refuses them with the reason). */
START_TEST(test_aclnn_move_profiles)
{
    nnt_setup_profile(_i ? "ascend910a" : "ascend310");
    static uint8_t h0[MAXE * 4], h1[MAXE * 4], want[MAXE * 4];
    const int64_t d0[] = {4, 16, 8}, d1[] = {4, 8, 8}, dout[] = {4, 24, 8}, ds[] = {4, 8, 8};
    nnt_dt_t x0 = mk(d0, 3, ACL_FLOAT, 12, h0), x1 = mk(d1, 3, ACL_FLOAT, 13, h1);
    nnt_dt_t out = nnt_mk(dout, 3, ACL_FLOAT, ACL_FORMAT_ND, NULL), so = nnt_mk(ds, 3, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    aclTensor *v[] = {x0.t, x1.t};
    aclTensorList *l = aclCreateTensorList((const aclTensor *const *)v, 2);
    for (int a = 0; a < 4; a++) {
        memcpy(want + a * 24 * 32, h0 + a * 16 * 32, 16 * 32);
        memcpy(want + a * 24 * 32 + 16 * 32, h1 + a * 8 * 32, 8 * 32);
    }
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnCatGetWorkspaceSize(l, 1, out.t, &ws, &e));
    RUN(aclnnCat(NULL, ws, e, nnt_stream));
    ck_bytes("cat of whole blocks", &out, want, 4 * 24 * 8, ACL_FLOAT);
    ref_slice(want, h0, 4, 4, 16, 8, 1, 2, 8);
    CK_OK(aclnnSliceGetWorkspaceSize(x0.t, 1, 1, 16, 2, so.t, &ws, &e));
    RUN(aclnnSlice(NULL, ws, e, nnt_stream));
    ck_bytes("slice of whole blocks", &so, want, 4 * 8 * 8, ACL_FLOAT);
    /* rows of 3 fp32 (12 bytes) */
    const int64_t d3[] = {4, 3}, d12[] = {1, 12};
    nnt_dt_t y = mk(d3, 2, ACL_FLOAT, 14, h1), z12 = nnt_mk(d12, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    if (_i) {
        CK_ERR(aclnnFlattenGetWorkspaceSize(y.t, 0, z12.t, &ws, &e), NN_INVALID, "chip.dma_pad is false");
    } else {
        CK_OK(aclnnFlattenGetWorkspaceSize(y.t, 0, z12.t, &ws, &e));
        RUN(aclnnFlatten(NULL, ws, e, nnt_stream));
        ck_bytes("flatten of 12-byte rows", &z12, h1, 12, ACL_FLOAT);
    }
}
END_TEST

/* The library's index_select under --check on both profiles (loop: profile), byte-exact: rows in
 * several dtypes and lengths, a row longer than a unit (column chunks), many cores. */
START_TEST(test_ops_index_select_check)
{
    static const char *const cmds[] = {
        "index_select --shape 4x100x40 --index 77 --dtype fp32", "index_select --shape 3x50x7 --index 20 --dtype fp16",
        "index_select --shape 1000x8 --index 300 --dtype int32", "index_select --shape 2x10x5000 --index 6 --dtype int8",
        "index_select --shape 2x12x30000 --index 3 --dtype fp32", "index_select --shape 64x64 --index 1 --dtype bf16 --cores 1"};
    const char *profile = _i ? "ascend310" : NULL;
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        dvt_op_t r;
        dvt_op(&r, profile, NULL, cmds[c], true, true);
        ck_assert_msg(r.rc == DV_OK, "%s: %s", cmds[c], r.err.msg);
        ck_assert_msg(r.check.compared > 0 && r.check.mismatches == 0, "%s: %llu mismatches", cmds[c],
                      (unsigned long long)r.check.mismatches);
        ck_assert_msg(r.cnt.hazards == 0, "%s: hazards", cmds[c]);
        dvt_op_free(&r);
    }
    /* --check's int32 inputs are in [-8, 8]: an L of 5 meets indices beyond it, which fail the kernel */
    dvt_op_t r;
    dvt_op(&r, profile, NULL, "index_select --shape 5x4 --index 64 --dtype fp16", true, true);
    ck_assert_msg(r.rc != DV_OK && strstr(r.err.msg, "outside [-5, 5)"), "L 5: %s", r.err.msg);
    dvt_op_free(&r);
}
END_TEST

/* IndexSelect, GatherV2, GatherV3, Embedding and Take with int32 and int64 indices (negative ones
 * count from the end) against the reference, and their errors. */
START_TEST(test_aclnn_move_gather)
{
    const aclDataType dt = dts[_i];
    const size_t sz = nnt_dtype_size(dt);
    static uint8_t h[MAXE * 4], want[MAXE * 4];
    const int64_t d[] = {3, 10, 4}, di[] = {5}, dout[] = {3, 5, 4};
    const int32_t i32[] = {9, -1, 0, 3, -10};
    const int64_t i64[] = {2, -3, 7, 7, 0};
    nnt_dt_t x = mk(d, 3, dt, 15, h);
    nnt_dt_t ix32 = nnt_mk(di, 1, ACL_INT32, ACL_FORMAT_ND, i32), ix64 = mk64(di, 1, i64);
    nnt_dt_t out = nnt_mk(dout, 3, dt, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    for (int w = 0; w < 2; w++) {
        for (int j = 0; j < 5; j++) {
            const int64_t v = w ? i64[j] : i32[j], r = v < 0 ? v + 10 : v;
            for (int o = 0; o < 3; o++)
                memcpy(want + ((size_t)(o * 5 + j) * 4) * sz, h + ((size_t)(o * 10 + r) * 4) * sz, 4 * sz);
        }
        CK_OK(aclnnIndexSelectGetWorkspaceSize(x.t, -2, w ? ix64.t : ix32.t, out.t, &ws, &e));
        RUN(aclnnIndexSelect(NULL, ws, e, nnt_stream));
        ck_bytes(w ? "index_select int64" : "index_select int32", &out, want, 60, dt);
    }
    /* GatherV2 / V3 along the last dim with a 2-D index: out [3, 10, 2, 2] */
    const int64_t d22[] = {2, 2}, dg[] = {3, 10, 2, 2};
    const int64_t g64[] = {3, -4, 0, 1};
    nnt_dt_t ig = mk64(d22, 2, g64), og = nnt_mk(dg, 4, dt, ACL_FORMAT_ND, NULL);
    for (int a = 0; a < 30; a++)
        for (int j = 0; j < 4; j++) {
            const int64_t r = g64[j] < 0 ? g64[j] + 4 : g64[j];
            memcpy(want + (size_t)(a * 4 + j) * sz, h + (size_t)(a * 4 + r) * sz, sz);
        }
    CK_OK(aclnnGatherV2GetWorkspaceSize(x.t, 2, ig.t, og.t, &ws, &e));
    RUN(aclnnGatherV2(NULL, ws, e, nnt_stream));
    ck_bytes("gather_v2", &og, want, 120, dt);
    CK_OK(aclnnGatherV3GetWorkspaceSize(x.t, -1, ig.t, 0, 1, og.t, &ws, &e));
    RUN(aclnnGatherV3(NULL, ws, e, nnt_stream));
    ck_bytes("gather_v3", &og, want, 120, dt);
    CK_ERR(aclnnGatherV3GetWorkspaceSize(x.t, 2, ig.t, 1, 1, og.t, &ws, &e), NN_INVALID, "batchDims is 1");
    /* Embedding: rows of a [30, 4] weight; Take: elements of the flattened self */
    const int64_t dw[] = {30, 4}, de[] = {2, 2, 4};
    nnt_dt_t wt = nnt_mk(dw, 2, dt, ACL_FORMAT_ND, h), oe = nnt_mk(de, 3, dt, ACL_FORMAT_ND, NULL);
    const int64_t e64[] = {29, 0, 17, 5};
    nnt_dt_t ie = mk64(d22, 2, e64);
    for (int j = 0; j < 4; j++)
        memcpy(want + (size_t)j * 4 * sz, h + (size_t)e64[j] * 4 * sz, 4 * sz);
    CK_OK(aclnnEmbeddingGetWorkspaceSize(wt.t, ie.t, oe.t, &ws, &e));
    RUN(aclnnEmbedding(NULL, ws, e, nnt_stream));
    ck_bytes("embedding", &oe, want, 16, dt);
    const int32_t t32[] = {119, -120, 7, 64};
    nnt_dt_t it = nnt_mk(d22, 2, ACL_INT32, ACL_FORMAT_ND, t32), ot = nnt_mk(d22, 2, dt, ACL_FORMAT_ND, NULL);
    for (int j = 0; j < 4; j++)
        memcpy(want + (size_t)j * sz, h + (size_t)(t32[j] < 0 ? t32[j] + 120 : t32[j]) * sz, sz);
    CK_OK(aclnnTakeGetWorkspaceSize(x.t, it.t, ot.t, &ws, &e));
    RUN(aclnnTake(NULL, ws, e, nnt_stream));
    ck_bytes("take", &ot, want, 4, dt);
    /* errors: the index dtype and rank, out's shape, an index out of range (the kernel stops) */
    nnt_dt_t ih = nnt_mk(di, 1, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    CK_ERR(aclnnIndexSelectGetWorkspaceSize(x.t, 1, ih.t, out.t, &ws, &e), NN_INVALID,
           "index has dtype ACL_FLOAT16; indices are ACL_INT32 or ACL_INT64");
    CK_ERR(aclnnIndexSelectGetWorkspaceSize(x.t, 1, ig.t, out.t, &ws, &e), NN_INVALID, "index has 2 dimensions");
    CK_ERR(aclnnIndexSelectGetWorkspaceSize(x.t, 0, ix32.t, out.t, &ws, &e), NN_INVALID,
           "out has shape [3,5,4]; selecting along dim with index needs [5,10,4]");
    CK_ERR(aclnnEmbeddingGetWorkspaceSize(x.t, ie.t, oe.t, &ws, &e), NN_INVALID, "weight has 3 dimensions");
    CK_ERR(aclnnIndexSelectGetWorkspaceSize(x.t, 1, NULL, out.t, &ws, &e), NN_NULLPTR, "index");
    const int32_t bad[] = {1, 10, 0, 0, 0};
    nnt_dt_t ib = nnt_mk(di, 1, ACL_INT32, ACL_FORMAT_ND, bad);
    CK_OK(aclnnIndexSelectGetWorkspaceSize(x.t, 1, ib.t, out.t, &ws, &e));
    CK_OK(aclnnIndexSelect(NULL, ws, e, nnt_stream));
    ck_assert_int_ne(aclrtSynchronizeStream(nnt_stream), 0);
    const char *m = aclGetRecentErrMsg();
    ck_assert_msg(m && strstr(m, "index[1] is 10, outside [-10, 10)"), "out-of-range index: %s", m ? m : "(null)");
    /* an int64 index is both its words: 2^32 + 1 is not 1 */
    const int64_t bad64[] = {0, (INT64_C(1) << 32) + 1, 0, 0, 0};
    nnt_dt_t ib64 = mk64(di, 1, bad64);
    CK_OK(aclnnIndexSelectGetWorkspaceSize(x.t, 1, ib64.t, out.t, &ws, &e));
    CK_OK(aclnnIndexSelect(NULL, ws, e, nnt_stream));
    ck_assert_int_ne(aclrtSynchronizeStream(nnt_stream), 0);
    m = aclGetRecentErrMsg();
    ck_assert_msg(m && strstr(m, "index[1] is 4294967297, outside"), "int64 index: %s", m ? m : "(null)");
}
END_TEST

/* The library's tile under --check on both profiles (loop: profile): 1-D to 4-D, a row longer than a
 * unit, several dtypes. */
START_TEST(test_ops_tile_check)
{
    static const char *const cmds[] = {
        "tile --shape 4x64x128 --repeats 2x1x2", "tile --shape 3x2 --repeats 4x2 --dtype fp32",
        "tile --shape 7 --repeats 5 --dtype int32", "tile --shape 2x3x5x7 --repeats 2x2x1x3 --dtype int8",
        "tile --shape 2x30000 --repeats 2x2 --dtype fp32", "tile --shape 100x8 --repeats 1x3 --dtype bf16 --cores 3"};
    const char *profile = _i ? "ascend310" : NULL;
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        dvt_op_t r;
        dvt_op(&r, profile, NULL, cmds[c], true, true);
        ck_assert_msg(r.rc == DV_OK, "%s: %s", cmds[c], r.err.msg);
        ck_assert_msg(r.check.compared > 0 && r.check.mismatches == 0, "%s: %llu mismatches", cmds[c],
                      (unsigned long long)r.check.mismatches);
        ck_assert_msg(r.cnt.hazards == 0, "%s: hazards", cmds[c]);
        dvt_op_free(&r);
    }
    dvt_op_t r;
    dvt_op(&r, profile, NULL, "tile --shape 4x5 --repeats 2", false, false);
    ck_assert_msg(r.rc != DV_OK && strstr(r.err.msg, "1 repeats given for the 2 dimensions"), "%s", r.err.msg);
    dvt_op_free(&r);
}
END_TEST

/* Repeat (more repeats than dims), RepeatInterleaveInt and ...WithDim against the reference, and
 * their errors. */
START_TEST(test_aclnn_move_repeat)
{
    const aclDataType dt = dts[_i];
    const size_t sz = nnt_dtype_size(dt);
    static uint8_t h[MAXE * 4], want[MAXE * 4];
    const int64_t d[] = {3, 2, 5}, dr[] = {2, 6, 2, 5}, rep[] = {2, 2, 1, 1};
    nnt_dt_t x = mk(d, 3, dt, 16, h), out = nnt_mk(dr, 4, dt, ACL_FORMAT_ND, NULL);
    aclIntArray *ra = aclCreateIntArray(rep, 4);
    /* out[a][b][c][e] = x[b % 3][c][e] */
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 6; b++)
            memcpy(want + (size_t)((a * 6 + b) * 10) * sz, h + (size_t)((b % 3) * 10) * sz, 10 * sz);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnRepeatGetWorkspaceSize(x.t, ra, out.t, &ws, &e));
    RUN(aclnnRepeat(NULL, ws, e, nnt_stream));
    ck_bytes("repeat", &out, want, 120, dt);
    const int64_t rep2[] = {1, 3};
    aclIntArray *rb = aclCreateIntArray(rep2, 2);
    CK_ERR(aclnnRepeatGetWorkspaceSize(x.t, rb, out.t, &ws, &e), NN_INVALID, "repeats has 2 entries; it needs 3");
    CK_ERR(aclnnRepeatGetWorkspaceSize(x.t, ra, x.t, &ws, &e), NN_INVALID, "out has shape [3,2,5]; self repeated "
                                                                           "needs [2,6,2,5]");
    CK_ERR(aclnnRepeatGetWorkspaceSize(x.t, NULL, out.t, &ws, &e), NN_NULLPTR, "repeats is NULL");
    /* interleave: flattened, each element 3 times; along dim 1, each [.., c, ..] slice twice */
    const int64_t d90[] = {90}, d345[] = {3, 4, 5};
    nnt_dt_t o1 = nnt_mk(d90, 1, dt, ACL_FORMAT_ND, NULL), o2 = nnt_mk(d345, 3, dt, ACL_FORMAT_ND, NULL);
    for (int i = 0; i < 90; i++)
        memcpy(want + (size_t)i * sz, h + (size_t)(i / 3) * sz, sz);
    CK_OK(aclnnRepeatInterleaveIntGetWorkspaceSize(x.t, 3, 90, o1.t, &ws, &e));
    RUN(aclnnRepeatInterleaveInt(NULL, ws, e, nnt_stream));
    ck_bytes("repeat_interleave", &o1, want, 90, dt);
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < 4; c++)
            memcpy(want + (size_t)((a * 4 + c) * 5) * sz, h + (size_t)((a * 2 + c / 2) * 5) * sz, 5 * sz);
    CK_OK(aclnnRepeatInterleaveIntWithDimGetWorkspaceSize(x.t, 2, -2, 4, o2.t, &ws, &e));
    RUN(aclnnRepeatInterleaveIntWithDim(NULL, ws, e, nnt_stream));
    ck_bytes("repeat_interleave dim 1", &o2, want, 60, dt);
    CK_ERR(aclnnRepeatInterleaveIntWithDimGetWorkspaceSize(x.t, 2, 1, 5, o2.t, &ws, &e), NN_INVALID,
           "outputSize is 5; 2 elements repeated 2 times give 4");
    CK_ERR(aclnnRepeatInterleaveIntGetWorkspaceSize(x.t, -1, 0, o1.t, &ws, &e), NN_INVALID, "repeats is -1");
    CK_ERR(aclnnRepeatInterleaveIntWithDimGetWorkspaceSize(x.t, 2, 0, 6, o2.t, &ws, &e), NN_INVALID,
           "out has shape [3,4,5]; self repeated needs [6,2,5]");
}
END_TEST

/* The library's trilu under --check on both profiles (loop: profile): diagonals inside and beyond
 * the matrix, rows longer than a unit, several dtypes. */
START_TEST(test_ops_trilu_check)
{
    static const char *const cmds[] = {
        "trilu --shape 4x64x128", "trilu --shape 3x3 --dtype int32",
        "trilu --shape 2x37x23 --diagonal 3 --upper on --dtype fp32", "trilu --shape 5x40x40 --diagonal -7 --dtype int8",
        "trilu --shape 3x100000 --diagonal 60000 --dtype fp32", "trilu --shape 3x9x5 --diagonal -2 --upper on --dtype bf16 --cores 2",
        "trilu --shape 6x7 --diagonal -9", "trilu --shape 6x7 --diagonal 8 --upper on"};
    const char *profile = _i ? "ascend310" : NULL;
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        dvt_op_t r;
        dvt_op(&r, profile, NULL, cmds[c], true, true);
        ck_assert_msg(r.rc == DV_OK, "%s: %s", cmds[c], r.err.msg);
        ck_assert_msg(r.check.compared > 0 && r.check.mismatches == 0, "%s: %llu mismatches", cmds[c],
                      (unsigned long long)r.check.mismatches);
        ck_assert_msg(r.cnt.hazards == 0, "%s: hazards", cmds[c]);
        dvt_op_free(&r);
    }
}
END_TEST

/* Tril, Triu and the in-place forms on a batch of 7x5 matrices against the reference. */
START_TEST(test_aclnn_move_trilu)
{
    const aclDataType dt = dts[_i];
    const size_t sz = nnt_dtype_size(dt);
    static uint8_t h[MAXE * 4], want[MAXE * 4];
    const int64_t d[] = {2, 7, 5};
    nnt_dt_t x = mk(d, 3, dt, 17, h), out = nnt_mk(d, 3, dt, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    static const int64_t diags[] = {0, 2, -3};
    for (int up = 0; up < 2; up++)
        for (int g = 0; g < 3; g++) {
            memset(want, 0, sizeof want);
            for (int r = 0; r < 14; r++)
                for (int j = 0; j < 5; j++) {
                    const int64_t off = j - r % 7;
                    if (up ? off >= diags[g] : off <= diags[g])
                        memcpy(want + (size_t)(r * 5 + j) * sz, h + (size_t)(r * 5 + j) * sz, sz);
                }
            char what[48];
            snprintf(what, sizeof what, "%s diagonal %lld", up ? "triu" : "tril", (long long)diags[g]);
            if (up)
                CK_OK(aclnnTriuGetWorkspaceSize(x.t, diags[g], out.t, &ws, &e));
            else
                CK_OK(aclnnTrilGetWorkspaceSize(x.t, diags[g], out.t, &ws, &e));
            RUN(up ? aclnnTriu(NULL, ws, e, nnt_stream) : aclnnTril(NULL, ws, e, nnt_stream));
            ck_bytes(what, &out, want, 70, dt);
            if (g == 2) {
                /* in place on a copy of x */
                nnt_dt_t y = nnt_mk(d, 3, dt, ACL_FORMAT_ND, h);
                if (up)
                    CK_OK(aclnnInplaceTriuGetWorkspaceSize(y.t, diags[g], &ws, &e));
                else
                    CK_OK(aclnnInplaceTrilGetWorkspaceSize(y.t, diags[g], &ws, &e));
                RUN(up ? aclnnInplaceTriu(NULL, ws, e, nnt_stream) : aclnnInplaceTril(NULL, ws, e, nnt_stream));
                ck_bytes("in place", &y, want, 70, dt);
            }
        }
    /* a diagonal far beyond the matrix keeps everything (tril) */
    CK_OK(aclnnTrilGetWorkspaceSize(x.t, INT64_C(1) << 50, out.t, &ws, &e));
    RUN(aclnnTril(NULL, ws, e, nnt_stream));
    ck_bytes("tril of all", &out, h, 70, dt);
    const int64_t d1[] = {5};
    nnt_dt_t v = nnt_mk(d1, 1, dt, ACL_FORMAT_ND, NULL);
    CK_ERR(aclnnTrilGetWorkspaceSize(v.t, 0, v.t, &ws, &e), NN_INVALID, "self has 1 dimension; a triangle needs");
    CK_ERR(aclnnTriuGetWorkspaceSize(x.t, 0, v.t, &ws, &e), NN_INVALID, "out has shape [5]; self's shape needs [2,7,5]");
}
END_TEST

/* The library's roll and flip under --check on both profiles (loop: profile). */
START_TEST(test_ops_roll_flip_check)
{
    static const char *const cmds[] = {
        "roll --shape 8x1024x64", "roll --shape 1x6x1 --shift 5 --dtype fp32", "roll --shape 3x7x5 --shift 0 --dtype int8",
        "roll --shape 2x100000x1 --shift 31 --dtype int32", "flip --shape 8x64x128", "flip --shape 4x2 --flip 1x0 --dtype fp32",
        "flip --shape 3x5x7 --flip 1x0x1 --dtype int8", "flip --shape 2x3000 --flip 0x1 --dtype fp32",
        "flip --shape 2x3x4x5 --flip 0x1x1x0 --dtype bf16"};
    const char *profile = _i ? "ascend310" : NULL;
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        dvt_op_t r;
        dvt_op(&r, profile, NULL, cmds[c], true, true);
        ck_assert_msg(r.rc == DV_OK, "%s: %s", cmds[c], r.err.msg);
        ck_assert_msg(r.check.compared > 0 && r.check.mismatches == 0, "%s: %llu mismatches", cmds[c],
                      (unsigned long long)r.check.mismatches);
        ck_assert_msg(r.cnt.hazards == 0, "%s: hazards", cmds[c]);
        dvt_op_free(&r);
    }
    dvt_op_t r;
    dvt_op(&r, profile, NULL, "roll --shape 2x5x3 --shift 5", false, false);
    ck_assert_msg(r.rc != DV_OK && strstr(r.err.msg, "5 is not below L 5"), "%s", r.err.msg);
    dvt_op_free(&r);
    dvt_op(&r, profile, NULL, "flip --shape 2x5x3 --flip 1x0", false, false);
    ck_assert_msg(r.rc != DV_OK && strstr(r.err.msg, "2 flags given for the 3 dimensions"), "%s", r.err.msg);
    dvt_op_free(&r);
}
END_TEST

/* Roll (one dim, shifts adding up, negative, flattened) and Flip (several dims, the last one) of a
 * [3, 4, 5] tensor against the reference, and their errors. */
START_TEST(test_aclnn_move_roll_flip)
{
    const aclDataType dt = dts[_i];
    const size_t sz = nnt_dtype_size(dt);
    static uint8_t h[MAXE * 4], want[MAXE * 4];
    const int64_t d[] = {3, 4, 5};
    nnt_dt_t x = mk(d, 3, dt, 18, h), out = nnt_mk(d, 3, dt, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    /* dim 1 by 3 + 2 - 6 = -1 (mod 4: 3); dim 0 by 3 (= 0) */
    const int64_t sh[] = {3, 2, -6, 3}, dm[] = {1, -2, 1, 0};
    aclIntArray *as = aclCreateIntArray(sh, 4), *ad = aclCreateIntArray(dm, 4);
    for (int a = 0; a < 3; a++)
        for (int l = 0; l < 4; l++)
            memcpy(want + (size_t)((a * 4 + (l + 3) % 4) * 5) * sz, h + (size_t)((a * 4 + l) * 5) * sz, 5 * sz);
    CK_OK(aclnnRollGetWorkspaceSize(x.t, as, ad, out.t, &ws, &e));
    RUN(aclnnRoll(NULL, ws, e, nnt_stream));
    ck_bytes("roll dim 1", &out, want, 60, dt);
    const int64_t s1[] = {-7};
    aclIntArray *a1 = aclCreateIntArray(s1, 1), *a0 = aclCreateIntArray(s1, 0);
    for (int i = 0; i < 60; i++)
        memcpy(want + (size_t)((i + 53) % 60) * sz, h + (size_t)i * sz, sz);
    CK_OK(aclnnRollGetWorkspaceSize(x.t, a1, a0, out.t, &ws, &e));
    RUN(aclnnRoll(NULL, ws, e, nnt_stream));
    ck_bytes("roll flattened", &out, want, 60, dt);
    const int64_t s2[] = {1, 1}, d2[] = {0, 2};
    aclIntArray *as2 = aclCreateIntArray(s2, 2), *ad2 = aclCreateIntArray(d2, 2);
    CK_ERR(aclnnRollGetWorkspaceSize(x.t, as2, ad2, out.t, &ws, &e), NN_INVALID, "rolls along dims 0 and 2");
    CK_ERR(aclnnRollGetWorkspaceSize(x.t, as2, ad, out.t, &ws, &e), NN_INVALID, "shifts has 2 entries and dims 4");
    /* flip dims 0 and 2 (the last); then dim 1 alone */
    const int64_t f02[] = {0, -1}, f1[] = {1}, fdup[] = {1, -2};
    aclIntArray *af02 = aclCreateIntArray(f02, 2), *af1 = aclCreateIntArray(f1, 1), *afd = aclCreateIntArray(fdup, 2);
    for (int a = 0; a < 3; a++)
        for (int l = 0; l < 4; l++)
            for (int j = 0; j < 5; j++)
                memcpy(want + (size_t)(((2 - a) * 4 + l) * 5 + 4 - j) * sz, h + (size_t)((a * 4 + l) * 5 + j) * sz, sz);
    CK_OK(aclnnFlipGetWorkspaceSize(x.t, af02, out.t, &ws, &e));
    RUN(aclnnFlip(NULL, ws, e, nnt_stream));
    ck_bytes("flip dims 0, 2", &out, want, 60, dt);
    for (int a = 0; a < 3; a++)
        for (int l = 0; l < 4; l++)
            memcpy(want + (size_t)((a * 4 + 3 - l) * 5) * sz, h + (size_t)((a * 4 + l) * 5) * sz, 5 * sz);
    CK_OK(aclnnFlipGetWorkspaceSize(x.t, af1, out.t, &ws, &e));
    RUN(aclnnFlip(NULL, ws, e, nnt_stream));
    ck_bytes("flip dim 1", &out, want, 60, dt);
    CK_ERR(aclnnFlipGetWorkspaceSize(x.t, afd, out.t, &ws, &e), NN_INVALID, "dims names dim 1 twice");
    CK_ERR(aclnnFlipGetWorkspaceSize(x.t, NULL, out.t, &ws, &e), NN_NULLPTR, "dims is NULL");
}
END_TEST

/* The library's pad under --check on both profiles (loop: profile). */
START_TEST(test_ops_pad_check)
{
    static const char *const cmds[] = {
        "pad", "pad --shape 3x3 --before 1x1 --after 1x1 --dtype fp32",
        "pad --shape 2x5x7 --before 1x0x3 --after 2x4x0 --value -2.5 --dtype fp16",
        "pad --shape 9 --before 3 --after 5 --value 7 --dtype int8",
        "pad --shape 4x6 --before 0x0 --after 1x2 --value 123456 --dtype int32",
        "pad --shape 2x3x4 --before 1x1x1 --after 1x1x1 --value 1.5 --dtype bf16 --cores 3"};
    const char *profile = _i ? "ascend310" : NULL;
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        dvt_op_t r;
        dvt_op(&r, profile, NULL, cmds[c], true, true);
        ck_assert_msg(r.rc == DV_OK, "%s: %s", cmds[c], r.err.msg);
        ck_assert_msg(r.check.compared > 0 && r.check.mismatches == 0, "%s: %llu mismatches", cmds[c],
                      (unsigned long long)r.check.mismatches);
        ck_assert_msg(r.cnt.hazards == 0, "%s: hazards", cmds[c]);
        dvt_op_free(&r);
    }
    dvt_op_t r;
    dvt_op(&r, profile, NULL, "pad --shape 2x5 --before 1 --after 1x1", false, false);
    ck_assert_msg(r.rc != DV_OK && strstr(r.err.msg, "1 values given for the 2 dimensions"), "%s", r.err.msg);
    dvt_op_free(&r);
}
END_TEST

/* ConstantPadNd of a [2, 3, 4] tensor by (1, 2) on the last dim and (0, 1) on the one before, with
 * the value's bits checked in each dtype, and its errors. */
START_TEST(test_aclnn_move_pad)
{
    const aclDataType dt = dts[_i];
    const size_t sz = nnt_dtype_size(dt);
    static uint8_t h[MAXE * 4], want[MAXE * 4];
    const int64_t d[] = {2, 3, 4}, dout[] = {2, 4, 7}, pads[] = {1, 2, 0, 1};
    nnt_dt_t x = mk(d, 3, dt, 19, h), out = nnt_mk(dout, 3, dt, ACL_FORMAT_ND, NULL);
    aclIntArray *pa = aclCreateIntArray(pads, 4);
    const float fv = -2.5f;
    const int32_t iv = -77;
    aclScalar *val = dt == ACL_INT32 ? aclCreateScalar((void *)&iv, ACL_INT32) : aclCreateScalar((void *)&fv, ACL_FLOAT);
    uint8_t vb[4];
    if (dt == ACL_FLOAT)
        memcpy(vb, &fv, 4);
    else if (dt == ACL_INT32)
        memcpy(vb, &iv, 4);
    else {
        const uint16_t hv = 0xC100; /* -2.5 in fp16 */
        memcpy(vb, &hv, 2);
    }
    for (int a = 0; a < 2; a++)
        for (int r = 0; r < 4; r++)
            for (int j = 0; j < 7; j++) {
                uint8_t *dst = want + (size_t)((a * 4 + r) * 7 + j) * sz;
                if (r < 3 && j >= 1 && j < 5)
                    memcpy(dst, h + (size_t)((a * 3 + r) * 4 + j - 1) * sz, sz);
                else
                    memcpy(dst, vb, sz);
            }
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnConstantPadNdGetWorkspaceSize(x.t, pa, val, out.t, &ws, &e));
    RUN(aclnnConstantPadNd(NULL, ws, e, nnt_stream));
    ck_bytes("constant_pad_nd", &out, want, 56, dt);
    const int64_t neg[] = {1, -1}, odd[] = {1, 1, 1};
    aclIntArray *pn = aclCreateIntArray(neg, 2), *po = aclCreateIntArray(odd, 3);
    CK_ERR(aclnnConstantPadNdGetWorkspaceSize(x.t, pn, val, out.t, &ws, &e), NN_INVALID, "pad[1] is -1");
    CK_ERR(aclnnConstantPadNdGetWorkspaceSize(x.t, po, val, out.t, &ws, &e), NN_INVALID, "pad has 3 entries");
    CK_ERR(aclnnConstantPadNdGetWorkspaceSize(x.t, pa, NULL, out.t, &ws, &e), NN_NULLPTR, "value is NULL");
    CK_ERR(aclnnConstantPadNdGetWorkspaceSize(x.t, pa, val, x.t, &ws, &e), NN_INVALID,
           "out has shape [2,3,4]; self padded needs [2,4,7]");
}
END_TEST

/* The library's eye under --check on both profiles (loop: profile). */
START_TEST(test_ops_eye_check)
{
    static const char *const cmds[] = {"eye", "eye --shape 3x3 --dtype fp32", "eye --shape 2x5x3 --dtype int8",
                                       "eye --shape 3x7 --dtype int32", "eye --shape 4x40x33 --dtype bf16 --cores 5"};
    const char *profile = _i ? "ascend310" : NULL;
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        dvt_op_t r;
        dvt_op(&r, profile, NULL, cmds[c], true, true);
        ck_assert_msg(r.rc == DV_OK, "%s: %s", cmds[c], r.err.msg);
        ck_assert_msg(r.check.compared > 0 && r.check.mismatches == 0, "%s: %llu mismatches", cmds[c],
                      (unsigned long long)r.check.mismatches);
        ck_assert_msg(r.cnt.hazards == 0, "%s: hazards", cmds[c]);
        dvt_op_free(&r);
    }
}
END_TEST

/* Eye: ones on the diagonal, zeros elsewhere, in each dtype (the zeros' writes: test_ops_move_writes). */
START_TEST(test_aclnn_move_eye)
{
    const aclDataType dt = dts[_i];
    const size_t sz = nnt_dtype_size(dt);
    static uint8_t h[MAXE * 4], want[MAXE * 4];
    const int64_t d[] = {5, 7}, dt2[] = {6, 3};
    nnt_dt_t out = mk(d, 2, dt, 20, h), o2 = mk(dt2, 2, dt, 21, h);
    uint8_t one[4];
    const float f1 = 1.0f;
    const int32_t i1 = 1;
    const uint16_t h1 = 0x3C00;
    memcpy(one, dt == ACL_FLOAT ? (const void *)&f1 : dt == ACL_INT32 ? (const void *)&i1 : (const void *)&h1, sz);
    uint64_t ws;
    aclOpExecutor *e;
    for (int w = 0; w < 2; w++) {
        const int64_t n = w ? 6 : 5, m = w ? 3 : 7;
        memset(want, 0, sizeof want);
        for (int64_t i = 0; i < n && i < m; i++)
            memcpy(want + (size_t)(i * m + i) * sz, one, sz);
        CK_OK(aclnnEyeGetWorkspaceSize(n, m, w ? o2.t : out.t, &ws, &e));
        RUN(aclnnEye(NULL, ws, e, nnt_stream));
        ck_bytes(w ? "eye 6x3" : "eye 5x7", w ? &o2 : &out, want, n * m, dt);
    }
    CK_ERR(aclnnEyeGetWorkspaceSize(5, 6, out.t, &ws, &e), NN_INVALID, "out has shape [5,7]; an n x m identity needs [5,6]");
    CK_ERR(aclnnEyeGetWorkspaceSize(-1, 7, out.t, &ws, &e), NN_INVALID, "n is -1");
    CK_ERR(aclnnEyeGetWorkspaceSize(5, 7, NULL, &ws, &e), NN_NULLPTR, "out");
}
END_TEST

/* Zeros and padding land in y before a run starts (outputs are staged zeroed), so --check cannot see
 * whether a kernel writes them: its GM write bytes can.  eye writes every element once; trilu 3x3
 * writes the rows (36 bytes) and the 3 dropped elements over them; pad 3x3 -> 5x5 every element once. */
START_TEST(test_ops_move_writes)
{
    static const struct { const char *cmd; uint64_t bytes; } cases[] = {
        {"eye --shape 3x7 --dtype int32", 84}, {"trilu --shape 3x3 --dtype int32", 48},
        {"trilu --shape 3x3 --dtype int32 --upper on --diagonal 1", 60},
        {"pad --shape 3x3 --before 1x1 --after 1x1 --dtype fp32", 100}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        dvt_op_t r;
        dvt_op(&r, NULL, NULL, cases[c].cmd, false, false);
        ck_assert_msg(r.rc == DV_OK, "%s: %s", cases[c].cmd, r.err.msg);
        ck_assert_msg(r.cnt.gm_write_bytes == cases[c].bytes, "%s: %llu bytes written, want %llu", cases[c].cmd,
                      (unsigned long long)r.cnt.gm_write_bytes, (unsigned long long)cases[c].bytes);
        dvt_op_free(&r);
    }
}
END_TEST

/* The library's one_hot under --check on both profiles (loop: profile); --check's indices are in
 * [-8, 8], so rows outside [0, C) (all off) are among them. */
START_TEST(test_ops_one_hot_check)
{
    static const char *const cmds[] = {"one_hot", "one_hot --index 8 --classes 4 --dtype int32",
                                       "one_hot --index 100 --classes 5 --dtype fp32",
                                       "one_hot --index 33 --classes 300 --dtype int8 --cores 4",
                                       "one_hot --index 20 --classes 9 --dtype bf16"};
    const char *profile = _i ? "ascend310" : NULL;
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        dvt_op_t r;
        dvt_op(&r, profile, NULL, cmds[c], true, true);
        ck_assert_msg(r.rc == DV_OK, "%s: %s", cmds[c], r.err.msg);
        ck_assert_msg(r.check.compared > 0 && r.check.mismatches == 0, "%s: %llu mismatches", cmds[c],
                      (unsigned long long)r.check.mismatches);
        ck_assert_msg(r.cnt.hazards == 0, "%s: hazards", cmds[c]);
        dvt_op_free(&r);
    }
}
END_TEST

/* OneHot of int32 and int64 indices (one outside [0, C): all off), on and off device tensors. */
START_TEST(test_aclnn_move_one_hot)
{
    const aclDataType dt = dts[_i];
    const size_t sz = nnt_dtype_size(dt);
    static uint8_t want[MAXE * 4], onb[4], offb[4];
    const int64_t di[] = {2, 3}, dout[] = {2, 3, 5}, d1[] = {1};
    const int32_t i32[] = {0, 4, 2, 7, -1, 3};
    const int64_t i64[] = {4, 0, 1, 1, 5, 2};
    nnt_dt_t on = mk(d1, 1, dt, 22, onb), off = mk(d1, 1, dt, 23, offb);
    nnt_dt_t x32 = nnt_mk(di, 2, ACL_INT32, ACL_FORMAT_ND, i32), x64 = mk64(di, 2, i64);
    nnt_dt_t out = nnt_mk(dout, 3, dt, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    for (int w = 0; w < 2; w++) {
        for (int j = 0; j < 6; j++)
            for (int k = 0; k < 5; k++)
                memcpy(want + (size_t)(j * 5 + k) * sz, (w ? i64[j] : i32[j]) == k ? onb : offb, sz);
        CK_OK(aclnnOneHotGetWorkspaceSize(w ? x64.t : x32.t, 5, on.t, off.t, -1, out.t, &ws, &e));
        RUN(aclnnOneHot(NULL, ws, e, nnt_stream));
        ck_bytes(w ? "one_hot int64" : "one_hot int32", &out, want, 30, dt);
    }
    CK_ERR(aclnnOneHotGetWorkspaceSize(x32.t, 5, on.t, off.t, 0, out.t, &ws, &e), NN_INVALID, "axis is 0");
    CK_ERR(aclnnOneHotGetWorkspaceSize(x32.t, 4, on.t, off.t, -1, out.t, &ws, &e), NN_INVALID,
           "out has shape [2,3,5]; one-hot rows of self needs [2,3,4]");
    CK_ERR(aclnnOneHotGetWorkspaceSize(x32.t, 5, out.t, off.t, -1, out.t, &ws, &e), NN_INVALID,
           "onValue and offValue hold one element each");
    CK_ERR(aclnnOneHotGetWorkspaceSize(x32.t, 0, on.t, off.t, -1, out.t, &ws, &e), NN_INVALID, "numClasses is 0");
    nnt_dt_t xh = nnt_mk(di, 2, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    CK_ERR(aclnnOneHotGetWorkspaceSize(xh.t, 5, on.t, off.t, -1, out.t, &ws, &e), NN_INVALID,
           "self has dtype ACL_FLOAT16; indices are ACL_INT32 or ACL_INT64");
}
END_TEST

/* The library's gather_elements under --check on both profiles (loop: profile). */
START_TEST(test_ops_gather_elements_check)
{
    static const char *const cmds[] = {
        "gather_elements", "gather_elements --shape 1x10x2 --index 4 --dtype fp32",
        "gather_elements --shape 3x20x1 --index 7 --dtype int8", "gather_elements --shape 2x9x300 --index 2 --dtype int32",
        "gather_elements --shape 2x12x5 --index 3 --dtype bf16 --cores 3"};
    const char *profile = _i ? "ascend310" : NULL;
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        dvt_op_t r;
        dvt_op(&r, profile, NULL, cmds[c], true, true);
        ck_assert_msg(r.rc == DV_OK, "%s: %s", cmds[c], r.err.msg);
        ck_assert_msg(r.check.compared > 0 && r.check.mismatches == 0, "%s: %llu mismatches", cmds[c],
                      (unsigned long long)r.check.mismatches);
        ck_assert_msg(r.cnt.hazards == 0, "%s: hazards", cmds[c]);
        dvt_op_free(&r);
    }
}
END_TEST

/* Gather (torch.gather) along dim 1 and dim 0 with int32 and int64 indices, and its errors. */
START_TEST(test_aclnn_move_gather_elements)
{
    const aclDataType dt = dts[_i];
    const size_t sz = nnt_dtype_size(dt);
    static uint8_t h[MAXE * 4], want[MAXE * 4];
    const int64_t d[] = {3, 4, 2}, di[] = {3, 2, 2};
    nnt_dt_t x = mk(d, 3, dt, 24, h), out = nnt_mk(di, 3, dt, ACL_FORMAT_ND, NULL);
    const int32_t i32[] = {3, 0, -1, 2, 1, 1, 0, -4, 2, 3, 3, 3};
    const int64_t i64[] = {0, 1, 2, 3, -4, -3, 1, 1, 3, 2, 1, 0};
    nnt_dt_t x32 = nnt_mk(di, 3, ACL_INT32, ACL_FORMAT_ND, i32), x64 = mk64(di, 3, i64);
    uint64_t ws;
    aclOpExecutor *e;
    for (int w = 0; w < 2; w++) {
        for (int a = 0; a < 3; a++)
            for (int j = 0; j < 2; j++)
                for (int i = 0; i < 2; i++) {
                    const int k = (a * 2 + j) * 2 + i;
                    int64_t v = w ? i64[k] : i32[k];
                    v = v < 0 ? v + 4 : v;
                    memcpy(want + (size_t)k * sz, h + (size_t)((a * 4 + v) * 2 + i) * sz, sz);
                }
        CK_OK(aclnnGatherGetWorkspaceSize(x.t, 1, w ? x64.t : x32.t, out.t, &ws, &e));
        RUN(aclnnGather(NULL, ws, e, nnt_stream));
        ck_bytes(w ? "gather int64" : "gather int32", &out, want, 12, dt);
    }
    CK_ERR(aclnnGatherGetWorkspaceSize(x.t, 0, x32.t, out.t, &ws, &e), NN_INVALID,
           "index has 2 in dim 1, self 4; dvsim gathers with index equal to self but along dim");
    CK_ERR(aclnnGatherGetWorkspaceSize(x.t, 1, x32.t, x.t, &ws, &e), NN_INVALID,
           "out has shape [3,4,2]; index's shape needs [3,2,2]");
    const int32_t bad[] = {0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    nnt_dt_t xb = nnt_mk(di, 3, ACL_INT32, ACL_FORMAT_ND, bad);
    CK_OK(aclnnGatherGetWorkspaceSize(x.t, 1, xb.t, out.t, &ws, &e));
    CK_OK(aclnnGather(NULL, ws, e, nnt_stream));
    ck_assert_int_ne(aclrtSynchronizeStream(nnt_stream), 0);
    const char *m = aclGetRecentErrMsg();
    ck_assert_msg(m && strstr(m, "index element 2 is 4, outside [-4, 4)"), "out-of-range index: %s", m ? m : "(null)");
}
END_TEST

/* StridedSlice: one dim, the last two (steps on both), a shrunk axis, an end mask; its errors. */
START_TEST(test_aclnn_move_strided_slice)
{
    const aclDataType dt = dts[_i];
    const size_t sz = nnt_dtype_size(dt);
    static uint8_t h[MAXE * 4], want[MAXE * 4];
    const int64_t d[] = {2, 6, 10};
    nnt_dt_t x = mk(d, 3, dt, 25, h);
    uint64_t ws;
    aclOpExecutor *e;
    /* dim 1 from 1 by 2: [2, 3, 10] */
    const int64_t b1[] = {0, 1, 0}, e1[] = {2, 6, 10}, s1[] = {1, 2, 1}, o1[] = {2, 3, 10};
    aclIntArray *ab = aclCreateIntArray(b1, 3), *ae = aclCreateIntArray(e1, 3), *as = aclCreateIntArray(s1, 3);
    nnt_dt_t y1 = nnt_mk(o1, 3, dt, ACL_FORMAT_ND, NULL);
    ref_slice(want, h, sz, 2, 6, 10, 1, 2, 3);
    CK_OK(aclnnStridedSliceGetWorkspaceSize(x.t, ab, ae, as, 0, 0, 0, 0, 0, y1.t, &ws, &e));
    RUN(aclnnStridedSlice(NULL, ws, e, nnt_stream));
    ck_bytes("strided slice dim 1", &y1, want, 60, dt);
    /* the last two: rows 1, 3, 5 and columns 2, 5, 8 (begin -8, end 9, stride 3) */
    const int64_t b2[] = {0, 1, -8}, e2[] = {2, 6, 9}, s2[] = {1, 2, 3}, o2[] = {2, 3, 3};
    aclIntArray *bb = aclCreateIntArray(b2, 3), *be = aclCreateIntArray(e2, 3), *bs = aclCreateIntArray(s2, 3);
    nnt_dt_t y2 = nnt_mk(o2, 3, dt, ACL_FORMAT_ND, NULL);
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                memcpy(want + (size_t)((p * 3 + i) * 3 + j) * sz, h + (size_t)((p * 6 + 1 + 2 * i) * 10 + 2 + 3 * j) * sz,
                       sz);
    CK_OK(aclnnStridedSliceGetWorkspaceSize(x.t, bb, be, bs, 0, 0, 0, 0, 0, y2.t, &ws, &e));
    RUN(aclnnStridedSlice(NULL, ws, e, nnt_stream));
    ck_bytes("strided slice last two", &y2, want, 18, dt);
    /* shrink dim 1 at 4, the end mask on dim 2 from 3: [2, 7] */
    const int64_t b3[] = {0, 4, 3}, e3[] = {2, 0, 0}, s3[] = {1, 1, 1}, o3[] = {2, 7};
    aclIntArray *cb = aclCreateIntArray(b3, 3), *ce = aclCreateIntArray(e3, 3), *cs = aclCreateIntArray(s3, 3);
    nnt_dt_t y3 = nnt_mk(o3, 2, dt, ACL_FORMAT_ND, NULL);
    for (int p = 0; p < 2; p++)
        memcpy(want + (size_t)p * 7 * sz, h + (size_t)((p * 6 + 4) * 10 + 3) * sz, 7 * sz);
    CK_OK(aclnnStridedSliceGetWorkspaceSize(x.t, cb, ce, cs, 0, 4, 0, 0, 2, y3.t, &ws, &e));
    RUN(aclnnStridedSlice(NULL, ws, e, nnt_stream));
    ck_bytes("strided slice shrink", &y3, want, 14, dt);
    /* errors: dims 0 and 2 sliced, a negative stride, an ellipsis */
    const int64_t b4[] = {1, 0, 1}, s4[] = {1, 1, -1};
    aclIntArray *db = aclCreateIntArray(b4, 3), *ds = aclCreateIntArray(s4, 3);
    CK_ERR(aclnnStridedSliceGetWorkspaceSize(x.t, db, ae, as, 0, 0, 0, 0, 0, y1.t, &ws, &e), NN_INVALID,
           "more than two dims are sliced");
    CK_ERR(aclnnStridedSliceGetWorkspaceSize(x.t, ab, ae, ds, 0, 0, 0, 0, 0, y1.t, &ws, &e), NN_INVALID,
           "strides[2] is -1");
    CK_ERR(aclnnStridedSliceGetWorkspaceSize(x.t, ab, ae, as, 0, 0, 1, 0, 0, y1.t, &ws, &e), NN_INVALID,
           "ellipsisMask is 1");
    const int64_t b5[] = {1, 0, 1}, e5[] = {2, 6, 10}, s5[] = {1, 1, 1}, o5[] = {1, 6, 9};
    aclIntArray *fb = aclCreateIntArray(b5, 3), *fe = aclCreateIntArray(e5, 3), *fs = aclCreateIntArray(s5, 3);
    nnt_dt_t y5 = nnt_mk(o5, 3, dt, ACL_FORMAT_ND, NULL);
    CK_ERR(aclnnStridedSliceGetWorkspaceSize(x.t, fb, fe, fs, 0, 0, 0, 0, 0, y5.t, &ws, &e), NN_INVALID,
           "dims 0 and 2 are sliced");
}
END_TEST

Suite *dv_aclnn_move_suite(void)
{
    Suite *s = suite_create("aclnn_move");
    TCase *tc = tcase_create("aclnn_move");
    tcase_add_checked_fixture(tc, nnt_setup, nnt_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_aclnn_move_cat, 0, 3);
    tcase_add_loop_test(tc, test_aclnn_move_stack, 0, 3);
    tcase_add_loop_test(tc, test_aclnn_move_slice, 0, 3);
    tcase_add_loop_test(tc, test_aclnn_move_split, 0, 3);
    tcase_add_loop_test(tc, test_aclnn_move_flatten, 0, 3);
    tcase_add_loop_test(tc, test_aclnn_move_gather, 0, 3);
    tcase_add_loop_test(tc, test_aclnn_move_repeat, 0, 3);
    tcase_add_loop_test(tc, test_aclnn_move_trilu, 0, 3);
    tcase_add_loop_test(tc, test_aclnn_move_roll_flip, 0, 3);
    tcase_add_loop_test(tc, test_aclnn_move_pad, 0, 3);
    tcase_add_loop_test(tc, test_aclnn_move_eye, 0, 3);
    tcase_add_loop_test(tc, test_aclnn_move_one_hot, 0, 3);
    tcase_add_loop_test(tc, test_aclnn_move_gather_elements, 0, 3);
    tcase_add_loop_test(tc, test_aclnn_move_strided_slice, 0, 3);
    suite_add_tcase(s, tc);
    TCase *t3 = tcase_create("aclnn_move_profiles");
    tcase_add_checked_fixture(t3, NULL, nnt_teardown);
    tcase_set_timeout(t3, 60);
    tcase_add_loop_test(t3, test_aclnn_move_profiles, 0, 2);
    suite_add_tcase(s, t3);
    TCase *to = tcase_create("ops_index_select");
    tcase_set_timeout(to, 120);
    tcase_add_loop_test(to, test_ops_index_select_check, 0, 2);
    tcase_add_loop_test(to, test_ops_tile_check, 0, 2);
    tcase_add_loop_test(to, test_ops_trilu_check, 0, 2);
    tcase_add_loop_test(to, test_ops_roll_flip_check, 0, 2);
    tcase_add_loop_test(to, test_ops_pad_check, 0, 2);
    tcase_add_loop_test(to, test_ops_eye_check, 0, 2);
    tcase_add_test(to, test_ops_move_writes);
    tcase_add_loop_test(to, test_ops_one_hot_check, 0, 2);
    tcase_add_loop_test(to, test_ops_gather_elements_check, 0, 2);
    suite_add_tcase(s, to);
    return s;
}
