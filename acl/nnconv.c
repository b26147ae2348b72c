/* acl/nnconv.c - the first phases of aclnnConvolution, aclnnConvTbc and aclnnConvDepthwise2d
 * (acl/nnops.def, rows Convolution, ConvTbc, ConvDepthwise2d; depthwise = groups as many as channels,
 * conv_tbc = 1-D in the [time, batch, channel] layouts, at the end of this file): 1-D (NCL),
 * 2-D (NCHW) and 3-D (NCDHW) convolutions, groups, transposed (with outputPadding), an optional bias
 * of the input's dtype, fp16 / bf16 / fp32.  The plain 2-D case (fp16 or bf16, groups 1, not
 * transposed, no bias, one stride, padding and dilation for both axes) runs the library's conv2d
 * (ops/conv2d.c, NC1HWC0 + img2col); every other case its convolution (ops/convolution.c, im2col by
 * vgather + a matmul per image and group).  Arrays: stride and dilation take one value per spatial
 * axis (or one for all), padding the same or, 2-D, four (top, bottom, left, right) when each pair is
 * equal; outputPadding (transposed only) as stride.  cubeMathType is checked (0..3): dvsim's cube
 * multiplies fp32 as fp32 whatever it says (no HF32 or fp16 down-conversion is modelled). */
#include "nn.h"

#include "dv/ops.h"

#include <stdio.h>
#include <string.h>

#include "aclnnop/aclnn_convolution.h"

/* Values of an aclIntArray, one per spatial axis (nsp of them): n == nsp, or 1 for every axis;
 * padding also takes 2 * nsp as (before, after) pairs when they are equal. */
static int conv_axes(const dv_nn_call_t *c, const aclIntArray *a, const char *what, int nsp, bool pairs, int64_t min,
                     int64_t *v)
{
    if (!a)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: %s is NULL", c->gws, what);
    if (!dv_acl_handle_is(a, DV_ACL_MAGIC_INT_ARRAY))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is not a live aclIntArray", c->gws, what);
    const uint64_t n = a->size;
    if (n != 1 && n != (uint64_t)nsp && !(pairs && n == 2u * (uint64_t)nsp))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %llu values; a %d-D convolution takes %d (or 1 for "
                           "every axis%s)", c->gws, what, (unsigned long long)n, nsp, nsp,
                           pairs ? ", or a (before, after) pair per axis" : "");
    for (int i = 0; i < nsp; i++) {
        if (n == 2u * (uint64_t)nsp && a->v[2 * i] != a->v[2 * i + 1])
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is %lld before and %lld after on spatial axis %d; "
                               "dvsim pads both sides alike", c->gws, what, (long long)a->v[2 * i],
                               (long long)a->v[2 * i + 1], i + 1);
        v[i] = n == 1 ? a->v[0] : n == (uint64_t)nsp ? a->v[i] : a->v[2 * i];
        if (v[i] < min || v[i] > 255)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is %lld on spatial axis %d; dvsim takes %lld to 255",
                               c->gws, what, (long long)v[i], i + 1, (long long)min);
    }
    return ACLNN_SUCCESS;
}

/* Channel-first layouts only: ND or the format of the rank. */
static int conv_format(const dv_nn_call_t *c, const aclTensor *t, const char *what, int nsp)
{
    static const aclFormat want[4] = {ACL_FORMAT_ND, ACL_FORMAT_NCL, ACL_FORMAT_NCHW, ACL_FORMAT_NCDHW};
    if (t->format == ACL_FORMAT_ND || t->format == want[nsp])
        return ACLNN_SUCCESS;
    return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has format %s; a %d-D convolution takes %s (channels first)",
                       c->gws, what, dv_acl_format_name(t->format), nsp, dv_acl_format_name(want[nsp]));
}

/* The checks and the call of every row once the tensors are live (c started; the names are CANN's
 * for aclnnConvolution, in_what / out_what for the tensors other rows name differently). */
static int conv_call(dv_nn_call_t *c0, const aclTensor *input, const char *in_what, const aclTensor *weight,
                     const aclTensor *bias, const aclIntArray *stride, const aclIntArray *padding,
                     const aclIntArray *dilation, bool transposed, const aclIntArray *outputPadding,
                     const int64_t groups, aclTensor *output, const char *out_what, int8_t cubeMathType,
                     uint64_t *workspaceSize, aclOpExecutor **executor)
{
    dv_nn_call_t c = *c0;
    int rc;
    /* 1. ranks, formats, dtypes */
    const int nd = (int)input->ndims, nsp = nd - 2;
    if (nd < 3 || nd > 5)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %d dims; a convolution takes 3 (NCL), 4 (NCHW) or 5 "
                           "(NCDHW)", c.gws, in_what, nd);
    if ((int)weight->ndims != nd || (int)output->ndims != nd)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %d dims but weight %d and %s %d: all take the same",
                           c.gws, in_what, nd, (int)weight->ndims, out_what, (int)output->ndims);
    if ((rc = dv_nn_check_cube_math(&c, cubeMathType)) || (rc = conv_format(&c, input, in_what, nsp)) ||
        (rc = conv_format(&c, weight, "weight", nsp)) || (rc = conv_format(&c, output, out_what, nsp)) ||
        (rc = dv_nn_check_same_dtype(&c, input, in_what, weight, "weight")) ||
        (rc = dv_nn_check_same_dtype(&c, input, in_what, output, out_what)) ||
        (bias && (rc = dv_nn_check_same_dtype(&c, input, in_what, bias, "bias"))))
        return rc;
    c.op = "convolution";
    if ((rc = dv_nn_check_dtype(&c, input, in_what, "dtype")))
        return rc;
    /* 2. the arrays */
    int64_t s[3], p[3], d[3], op[3] = {0, 0, 0};
    if ((rc = conv_axes(&c, stride, "stride", nsp, false, 1, s)) ||
        (rc = conv_axes(&c, padding, "padding", nsp, true, 0, p)) ||
        (rc = conv_axes(&c, dilation, "dilation", nsp, false, 1, d)) ||
        (transposed && (rc = conv_axes(&c, outputPadding, "outputPadding", nsp, false, 0, op))))
        return rc;
    /* 3. channels and groups: w [cout, cin/groups, k...], transposed [cin, cout/groups, k...] */
    const int64_t *x = input->dims, *w = weight->dims, *y = output->dims;
    if (groups < 1 || x[1] % groups)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: groups is %lld; it must be at least 1 and divide the %lld "
                           "channels of %s", c.gws, (long long)groups, (long long)x[1], in_what);
    const int64_t cout = transposed ? w[1] * groups : w[0];
    if (transposed ? w[0] != x[1] : (w[1] * groups != x[1] || w[0] % groups))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: weight has dims 0 and 1 of %lld and %lld; with %lld input "
                           "channels and groups %lld it takes %s", c.gws, (long long)w[0], (long long)w[1],
                           (long long)x[1], (long long)groups,
                           transposed ? "[cin, cout/groups] (transposed)" : "[cout, cin/groups], cout a multiple of "
                           "groups");
    if (bias && (dv_acl_tensor_elems(bias) != (uint64_t)cout || bias->ndims != 1))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: bias has %llu elements in %d dims; it takes one per output "
                           "channel (%lld), 1-D", c.gws, (unsigned long long)dv_acl_tensor_elems(bias),
                           (int)bias->ndims, (long long)cout);
    /* 4. the output shape, per spatial axis (the missing leading axes of 1-D / 2-D are 1) */
    int64_t in3[3] = {1, 1, 1}, k3[3] = {1, 1, 1}, s3[3] = {1, 1, 1}, p3[3] = {0, 0, 0}, d3[3] = {1, 1, 1},
            op3[3] = {0, 0, 0}, o3[3] = {1, 1, 1};
    bool ok = y[0] == x[0] && y[1] == cout;
    for (int i = 0; i < nsp; i++) {
        const int a = 3 - nsp + i;
        in3[a] = x[2 + i];
        k3[a] = w[2 + i];
        s3[a] = s[i];
        p3[a] = p[i];
        d3[a] = d[i];
        op3[a] = op[i];
        o3[a] = transposed ? (in3[a] - 1) * s3[a] - 2 * p3[a] + d3[a] * (k3[a] - 1) + op3[a] + 1
                           : (in3[a] + 2 * p3[a] - d3[a] * (k3[a] - 1) - 1) / s3[a] + 1;
        if (!transposed && in3[a] + 2 * p3[a] - d3[a] * (k3[a] - 1) - 1 < 0)
            o3[a] = 0;
        ok = ok && y[2 + i] == o3[a] && o3[a] >= 1;
    }
    if (!ok) {
        char sy[64], sw[80];
        dv_acl_dims_str(output, sy, sizeof sy);
        int n = snprintf(sw, sizeof sw, "%lld,%lld", (long long)x[0], (long long)cout);
        for (int i = 0; i < nsp && n > 0 && (size_t)n < sizeof sw; i++)
            n += snprintf(sw + n, sizeof sw - (size_t)n, ",%lld", (long long)o3[3 - nsp + i]);
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has shape [%s]; the convolution gives [%s]", c.gws,
                           out_what, sy, sw);
    }
    c.empty = dv_acl_tensor_elems(input) == 0 || dv_acl_tensor_elems(weight) == 0;
    const char *dt = dv_nn_param_dtype_name(dv_acl_dtype_info(input->dtype)->dv);
    /* 5. the library operator: conv2d for the plain 2-D case, else convolution */
    const bool plain = nsp == 2 && !transposed && groups == 1 && !bias && input->dtype != ACL_FLOAT && s[0] == s[1] &&
                       p[0] == p[1] && d[0] == d[1];
    if (plain) {
        c.op = "conv2d";
        dv_nn_call_param(&c, "n", "%lld", (long long)x[0]);
        dv_nn_call_param(&c, "cin", "%lld", (long long)x[1]);
        dv_nn_call_param(&c, "h", "%lld", (long long)x[2]);
        dv_nn_call_param(&c, "w", "%lld", (long long)x[3]);
        dv_nn_call_param(&c, "cout", "%lld", (long long)w[0]);
        dv_nn_call_param(&c, "kh", "%lld", (long long)w[2]);
        dv_nn_call_param(&c, "kw", "%lld", (long long)w[3]);
        dv_nn_call_param(&c, "stride", "%lld", (long long)s[0]);
        dv_nn_call_param(&c, "pad", "%lld", (long long)p[0]);
        dv_nn_call_param(&c, "dilation", "%lld", (long long)d[0]);
        dv_nn_call_param(&c, "dtype", "%s", dt);
    } else {
        dv_nn_call_param(&c, "n", "%lld", (long long)x[0]);
        dv_nn_call_param(&c, "cin", "%lld", (long long)x[1]);
        if (in3[0] != 1)
            dv_nn_call_param(&c, "d", "%lld", (long long)in3[0]);
        dv_nn_call_param(&c, "h", "%lld", (long long)in3[1]);
        dv_nn_call_param(&c, "w", "%lld", (long long)in3[2]);
        dv_nn_call_param(&c, "cout", "%lld", (long long)cout);
        if (groups != 1)
            dv_nn_call_param(&c, "groups", "%lld", (long long)groups);
        dv_nn_call_param(&c, "kernel", "%lldx%lldx%lld", (long long)k3[0], (long long)k3[1], (long long)k3[2]);
        dv_nn_call_param(&c, "stride", "%lldx%lldx%lld", (long long)s3[0], (long long)s3[1], (long long)s3[2]);
        dv_nn_call_param(&c, "dilation", "%lldx%lldx%lld", (long long)d3[0], (long long)d3[1], (long long)d3[2]);
        dv_nn_call_param(&c, "pad", "%lldx%lldx%lld", (long long)p3[0], (long long)p3[1], (long long)p3[2]);
        if (transposed) {
            dv_nn_call_param(&c, "transposed", "on");
            dv_nn_call_param(&c, "out-pad", "%lldx%lldx%lld", (long long)op3[0], (long long)op3[1],
                             (long long)op3[2]);
        }
        dv_nn_call_param(&c, "dtype", "%s", dt);
        if (bias)
            dv_nn_call_param(&c, "bias", "on");
    }
    dv_nn_call_tensor(&c, input, in_what, "x", true);
    dv_nn_call_tensor(&c, weight, "weight", "w", true);
    if (bias)
        dv_nn_call_tensor(&c, bias, "bias", "b", true);
    dv_nn_call_tensor(&c, output, out_what, "y", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}

aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor *input, const aclTensor *weight, const aclTensor *bias,
                                             const aclIntArray *stride, const aclIntArray *padding,
                                             const aclIntArray *dilation, bool transposed,
                                             const aclIntArray *outputPadding, const int64_t groups, aclTensor *output,
                                             int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc;
    dv_nn_call_init_row(&c, "aclnnConvolution");
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, input, "input")) ||
        (rc = dv_nn_get_tensor(&c, weight, "weight")) || (rc = dv_nn_get_tensor(&c, output, "output")) ||
        (bias && (rc = dv_nn_get_tensor(&c, bias, "bias"))))
        return rc;
    return conv_call(&c, input, "input", weight, bias, stride, padding, dilation, transposed, outputPadding, groups,
                     output, "output", cubeMathType, workspaceSize, executor);
}

/* aclnnConvDepthwise2d: a 2-D convolution with one group per channel of self (weight [cout, 1, kh,
 * kw], cout a multiple of the channels); kernelSize must name weight's kh, kw. */
aclnnStatus aclnnConvDepthwise2dGetWorkspaceSize(const aclTensor *self, const aclTensor *weight,
                                                 const aclIntArray *kernelSize, const aclTensor *bias,
                                                 const aclIntArray *stride, const aclIntArray *padding,
                                                 const aclIntArray *dilation, aclTensor *out, int8_t cubeMathType,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc;
    int64_t k[2];
    dv_nn_call_init_row(&c, "aclnnConvDepthwise2d");
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, self, "self")) ||
        (rc = dv_nn_get_tensor(&c, weight, "weight")) || (rc = dv_nn_get_tensor(&c, out, "out")) ||
        (bias && (rc = dv_nn_get_tensor(&c, bias, "bias"))))
        return rc;
    if (self->ndims != 4 || weight->ndims != 4)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: self has %d dims and weight %d; a depthwise 2-D convolution "
                           "takes NCHW (4)", c.gws, (int)self->ndims, (int)weight->ndims);
    if ((rc = conv_axes(&c, kernelSize, "kernelSize", 2, false, 1, k)))
        return rc;
    if (k[0] != weight->dims[2] || k[1] != weight->dims[3])
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: kernelSize is (%lld, %lld) but weight is %lld x %lld", c.gws,
                           (long long)k[0], (long long)k[1], (long long)weight->dims[2], (long long)weight->dims[3]);
    return conv_call(&c, self, "self", weight, bias, stride, padding, dilation, false, NULL, self->dims[1], out,
                     "out", cubeMathType, workspaceSize, executor);
}

/* aclnnConvTbc: the 1-D convolution of torch's conv_tbc in its layouts: self [T, B, Cin] (time,
 * batch, channels), weight [K, Cin, Cout], bias [Cout] (required, as torch's), pad on both ends of T,
 * output [T + 2*pad - K + 1, B, Cout]; the convolution operator with --tbc reads and writes them as
 * they lie. */
aclnnStatus aclnnConvTbcGetWorkspaceSize(const aclTensor *self, const aclTensor *weight, const aclTensor *bias,
                                         const int64_t pad, aclTensor *output, int8_t cubeMathType,
                                         uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc;
    dv_nn_call_init_row(&c, "aclnnConvTbc");
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, self, "self")) ||
        (rc = dv_nn_get_tensor(&c, weight, "weight")) || (rc = dv_nn_get_tensor(&c, bias, "bias")) ||
        (rc = dv_nn_get_tensor(&c, output, "output")))
        return rc;
    if ((rc = dv_nn_check_cube_math(&c, cubeMathType)) || (rc = dv_nn_check_plain(&c, self, "self")) ||
        (rc = dv_nn_check_plain(&c, weight, "weight")) || (rc = dv_nn_check_plain(&c, output, "output")) ||
        (rc = dv_nn_check_same_dtype(&c, self, "self", weight, "weight")) ||
        (rc = dv_nn_check_same_dtype(&c, self, "self", bias, "bias")) ||
        (rc = dv_nn_check_same_dtype(&c, self, "self", output, "output")) ||
        (rc = dv_nn_check_dtype(&c, self, "self", "dtype")))
        return rc;
    if (self->ndims != 3 || weight->ndims != 3 || output->ndims != 3)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: self, weight and output have %d, %d and %d dims; conv_tbc "
                           "takes 3 each ([T, B, Cin], [K, Cin, Cout], [T', B, Cout])", c.gws, (int)self->ndims,
                           (int)weight->ndims, (int)output->ndims);
    const int64_t *x = self->dims, *w = weight->dims, *y = output->dims;
    if (w[1] != x[2])
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: weight has %lld input channels (dim 1) but self %lld (dim 2)",
                           c.gws, (long long)w[1], (long long)x[2]);
    if (bias->ndims != 1 || bias->dims[0] != w[2])
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: bias takes one element per output channel (%lld), 1-D",
                           c.gws, (long long)w[2]);
    if (pad < 0 || pad > 255)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: pad is %lld; dvsim takes 0 to 255", c.gws, (long long)pad);
    const int64_t t_out = x[0] + 2 * pad - w[0] + 1;
    if (y[0] != t_out || y[1] != x[1] || y[2] != w[2] || t_out < 1) {
        char sy[64];
        dv_acl_dims_str(output, sy, sizeof sy);
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: output has shape [%s]; conv_tbc gives [%lld,%lld,%lld]", c.gws,
                           sy, (long long)t_out, (long long)x[1], (long long)w[2]);
    }
    c.empty = dv_acl_tensor_elems(self) == 0 || dv_acl_tensor_elems(weight) == 0;
    dv_nn_call_param(&c, "n", "%lld", (long long)x[1]);
    dv_nn_call_param(&c, "cin", "%lld", (long long)x[2]);
    dv_nn_call_param(&c, "h", "1");
    dv_nn_call_param(&c, "w", "%lld", (long long)x[0]);
    dv_nn_call_param(&c, "cout", "%lld", (long long)w[2]);
    dv_nn_call_param(&c, "kernel", "1x1x%lld", (long long)w[0]);
    dv_nn_call_param(&c, "pad", "0x0x%lld", (long long)pad);
    dv_nn_call_param(&c, "tbc", "on");
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(self->dtype)->dv));
    dv_nn_call_param(&c, "bias", "on");
    dv_nn_call_tensor(&c, self, "self", "x", true);
    dv_nn_call_tensor(&c, weight, "weight", "w", true);
    dv_nn_call_tensor(&c, bias, "bias", "b", true);
    dv_nn_call_tensor(&c, output, "output", "y", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}
