/* tests/check_ops.c - the operator library's common part: the registry, parameter parsing and its
 * errors (FLOAT parameters too), the plans of every operator on every profile, tolerances and
 * comparison. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dv/ops.h"
#include "dv/semantics.h"
#include "support/dvt.h"

START_TEST(test_ops_every_row_of_the_table_is_linked_and_sane)
{
    const dv_opdesc_t *const *all = dv_ops_all();
    size_t n = 0;
    while (all[n])
        n++;
    ck_assert_uint_eq(n, dv_ops_table_rows());
    for (size_t i = 0; i < n; i++) {
        const dv_opdesc_t *op = all[i];
        ck_assert_msg(op->name && op->desc && op->plan && op->kernel && op->reference, "operator %zu", i);
        ck_assert_ptr_eq(dv_ops_find(op->name), op);
        ck_assert_int_le(op->nparams, DV_OP_MAX_PARAMS);
        for (int p = 0; p < op->nparams; p++) {
            ck_assert_msg(op->params[p].desc && op->params[p].desc[0], "%s --%s has no description", op->name,
                          op->params[p].name);
            ck_assert_int_eq(dv_ops_param_index(op, op->params[p].name), p); /* names unique */
        }
        /* the defaults parse */
        dv_opvals_t v;
        dv_error_t err;
        ck_assert_msg(dv_ops_parse(op, 0, NULL, &v, &err) == DV_OK, "%s: %s", op->name, err.msg);
    }
    ck_assert_ptr_null(dv_ops_find("nosuchop"));
}
END_TEST

/* Every operator plans with its defaults on the 910B2 and the 310, and its kernel opens; on the
 * other presets a plan may only fail for want of a chip feature, and must name it. */
START_TEST(test_ops_defaults_plan_on_every_profile)
{
    const char *const *profiles = dv_profile_names();
    const dv_opdesc_t *const *all = dv_ops_all();
    for (int p = 0; profiles[p]; p++) {
        dv_config_t cfg;
        dvt_config(&cfg, profiles[p], NULL);
        for (int i = 0; all[i]; i++) {
            dv_opvals_t v;
            dv_op_plan_t plan;
            dv_error_t err;
            ck_assert_int_eq(dv_ops_parse(all[i], 0, NULL, &v, &err), DV_OK);
            int rc = dv_ops_plan(all[i], &cfg, &v, &plan, &err);
            bool required = strcmp(profiles[p], "ascend910b2") == 0 || strcmp(profiles[p], "ascend310") == 0;
            if (rc != DV_OK && !required && strstr(err.msg, "chip."))
                continue;
            ck_assert_msg(rc == DV_OK, "%s on %s: %s", all[i]->name, profiles[p], err.msg);
            ck_assert_uint_ge(plan.info.blocks, 1);
            ck_assert_uint_ge(plan.info.nargs, 1);
            ck_assert_uint_gt(plan.bytes, 0);
            dv_kernel_t *k;
            ck_assert_int_eq(dv_ops_kernel(all[i], &cfg, &plan, &k, &err), DV_OK);
            dvk_kernel_destroy(k);
        }
    }
}
END_TEST

static const dv_opdesc_t *first_with(const char *param)
{
    const dv_opdesc_t *const *all = dv_ops_all();
    for (int i = 0; all[i]; i++)
        if (dv_ops_param_index(all[i], param) >= 0)
            return all[i];
    return NULL;
}

static void parse_fails(const dv_opdesc_t *op, const char *line, const char *needle)
{
    char buf[256], *argv[16];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", line);
    for (char *t = strtok(buf, " "); t && argc < 16; t = strtok(NULL, " "))
        argv[argc++] = t;
    dv_opvals_t v;
    dv_error_t err;
    ck_assert_msg(dv_ops_parse(op, argc, argv, &v, &err) != DV_OK, "'%s' parsed", line);
    ck_assert_msg(strstr(err.msg, needle), "'%s': expected '%s' in: %s", line, needle, err.msg);
}

START_TEST(test_ops_parse_errors_name_the_parameter_and_limit)
{
    const dv_opdesc_t *op = first_with("shape");
    ck_assert_ptr_nonnull(op);
    parse_fails(op, "--nosuch 3", "has no parameter --nosuch");
    parse_fails(op, "shape 3", "expected --PARAMETER");
    parse_fails(op, "--shape", "--shape: needs a value");
    parse_fails(op, "--shape 0x4", "--shape: dimension 0 of '0x4' is out of range");
    parse_fails(op, "--shape 4x", "--shape: '4x' is not a shape");
    parse_fails(op, "--shape 1x2x3x4x5x6x7", "is not a shape");
    parse_fails(op, "--shape 4 --shape 5", "--shape: given twice");
    parse_fails(op, "--dtype fp64", "--dtype: unknown dtype 'fp64'");
    const dv_opdesc_t *c = first_with("cores");
    parse_fails(c, "--cores 0", "--cores: 0 is out of range");
    parse_fails(c, "--cores lots", "--cores: 'lots' is not a number");
    parse_fails(c, "--cores 99999999999999999999999", "--cores");
    const dv_opdesc_t *b = first_with("double-buffer");
    parse_fails(b, "--double-buffer maybe", "--double-buffer: 'maybe' is not on or off");
}
END_TEST

START_TEST(test_ops_parse_values_and_bare_flags)
{
    const dv_opdesc_t *op = first_with("double-buffer");
    int db = dv_ops_param_index(op, "double-buffer");
    char *argv[] = {"--double-buffer", "--cores=7"};
    dv_opvals_t v;
    dv_error_t err;
    ck_assert_msg(dv_ops_parse(op, 2, argv, &v, &err) == DV_OK, "%s", err.msg);
    ck_assert_int_eq(v.v[db].i, 1);
    ck_assert_int_eq(v.v[dv_ops_param_index(op, "cores")].i, 7);
    char *argv2[] = {"--double-buffer", "off"};
    ck_assert_int_eq(dv_ops_parse(op, 2, argv2, &v, &err), DV_OK);
    ck_assert_int_eq(v.v[db].i, 0);
    char buf[64];
    dv_ops_format_val(&op->params[db], &v.v[db], buf, sizeof buf);
    ck_assert_str_eq(buf, "off");
    const dv_opdesc_t *s = first_with("shape");
    int sh = dv_ops_param_index(s, "shape");
    char *argv3[] = {"--shape", "3x17x1"};
    ck_assert_int_eq(dv_ops_parse(s, 2, argv3, &v, &err), DV_OK);
    ck_assert_int_eq(v.v[sh].shape.ndims, 3);
    ck_assert_uint_eq(v.v[sh].shape.d[1], 17);
    dv_ops_format_val(&s->params[sh], &v.v[sh], buf, sizeof buf);
    ck_assert_str_eq(buf, "3x17x1");
}
END_TEST

/* FLOAT parameters: strtod syntax, finite, in the spec's range; every error names the parameter. */
START_TEST(test_ops_parse_float_errors_name_the_parameter)
{
    const dv_opdesc_t *a = first_with("alpha"), *e = first_with("eps");
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(e);
    parse_fails(a, "--alpha abc", "--alpha: 'abc' is not a number");
    parse_fails(a, "--alpha 1.5x", "--alpha: '1.5x' is not a number");
    parse_fails(a, "--alpha=", "--alpha: '' is not a number");
    parse_fails(a, "--alpha 1e999", "--alpha: '1e999' is not a finite number");
    parse_fails(a, "--alpha -1e999", "--alpha: '-1e999' is not a finite number");
    parse_fails(a, "--alpha nan", "--alpha: 'nan' is not a finite number");
    parse_fails(a, "--alpha inf", "--alpha: 'inf' is not a finite number");
    parse_fails(a, "--alpha 1e39", "--alpha: 1e39 is out of range [-3.4028234663852886e+38, 3.4028234663852886e+38]");
    parse_fails(a, "--alpha", "--alpha: needs a value");
    parse_fails(e, "--eps 0", "--eps: 0 is out of range (0, 1]");
    parse_fails(e, "--eps -1e-5", "--eps: -1e-5 is out of range (0, 1]");
    parse_fails(e, "--eps 1.0000001", "--eps: 1.0000001 is out of range (0, 1]");
    parse_fails(e, "--eps abc", "--eps: 'abc' is not a number");
}
END_TEST

/* A FLOAT value formats as the shortest text that parses back to the same double. */
START_TEST(test_ops_parse_float_round_trips)
{
    const dv_opdesc_t *op = first_with("alpha");
    const int ia = dv_ops_param_index(op, "alpha");
    const double vals[] = {1.0, -1.0, 0.1, 1.0 / 3, -2.5e-300, 1e-5, 123456789.123, 1e20, 3.4028234663852886e+38,
                           1.0000000000000002, -0.0, 65504};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        dv_oparam_val_t v = {.f = vals[i]};
        char text[64], arg[80], *argv[] = {arg};
        dv_ops_format_val(&op->params[ia], &v, text, sizeof text);
        snprintf(arg, sizeof arg, "--alpha=%s", text);
        dv_opvals_t out;
        dv_error_t err;
        ck_assert_msg(dv_ops_parse(op, 1, argv, &out, &err) == DV_OK, "%s: %s", arg, err.msg);
        ck_assert_msg(memcmp(&out.v[ia].f, &vals[i], sizeof(double)) == 0, "%.17g formats as %s, parses as %.17g",
                      vals[i], text, out.v[ia].f);
    }
    char buf[64];
    dv_oparam_val_t v = {.f = 1.0};
    dv_ops_format_val(&op->params[ia], &v, buf, sizeof buf);
    ck_assert_str_eq(buf, "1");
    v.f = 1e-5;
    dv_ops_format_val(&op->params[ia], &v, buf, sizeof buf);
    ck_assert_str_eq(buf, "1e-05");
    v.f = 1.2;
    dv_ops_format_val(&op->params[ia], &v, buf, sizeof buf);
    ck_assert_str_eq(buf, "1.2");
    /* the defaults */
    dv_opvals_t d;
    dv_error_t err;
    ck_assert_int_eq(dv_ops_parse(op, 0, NULL, &d, &err), DV_OK);
    ck_assert_double_eq(d.v[ia].f, 1.0);
    const dv_opdesc_t *ln = dv_ops_find("layernorm");
    ck_assert_int_eq(dv_ops_parse(ln, 0, NULL, &d, &err), DV_OK);
    ck_assert_double_eq(d.v[dv_ops_param_index(ln, "eps")].f, 1e-5);
}
END_TEST

/* --list shows FLOAT parameters with their range. */
START_TEST(test_ops_list_shows_float_ranges)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    dv_ops_print_params(dv_ops_find("add"), f);
    dv_ops_print_params(dv_ops_find("layernorm"), f);
    fclose(f);
    ck_assert_msg(strstr(text, "--alpha") && strstr(text, "x in [-3.4028234663852886e+38, 3.4028234663852886e+38]"),
                  "%s", text);
    ck_assert_msg(strstr(text, "--eps") && strstr(text, "x in (0, 1]") && strstr(text, "default 1e-5"), "%s", text);
    ck_assert_msg(strstr(text, "--stats") && strstr(text, "default off"), "%s", text);
    free(text);
}
END_TEST

START_TEST(test_ops_compare_uses_the_dtype_tolerance)
{
    double atol, rtol;
    dv_ops_tolerance(DV_DT_F32, &atol, &rtol);
    float want[4] = {1.0f, -2.0f, 0.0f, NAN}, got[4];
    memcpy(got, want, sizeof got);
    got[0] = 1.0f + (float)(rtol * 0.5);
    dv_check_result_t r = {0};
    dv_ops_compare(DV_DT_F32, 4, (const uint8_t *)got, (const uint8_t *)want, 1.0, &r);
    ck_assert_uint_eq(r.compared, 4);
    ck_assert_uint_eq(r.mismatches, 0);
    got[1] = -2.0f * (float)(1 + 3 * rtol);
    got[3] = 0.0f; /* NaN expected */
    memset(&r, 0, sizeof r);
    dv_ops_compare(DV_DT_F32, 4, (const uint8_t *)got, (const uint8_t *)want, 1.0, &r);
    ck_assert_uint_eq(r.mismatches, 2);
    ck_assert_uint_eq(r.first_bad, 1);
    memset(&r, 0, sizeof r);
    dv_ops_compare(DV_DT_F32, 2, (const uint8_t *)got, (const uint8_t *)want, 10.0, &r); /* scaled bounds */
    ck_assert_uint_eq(r.mismatches, 0);
    int32_t a[2] = {5, -7}, b[2] = {5, -6};
    memset(&r, 0, sizeof r);
    dv_ops_compare(DV_DT_S32, 2, (const uint8_t *)a, (const uint8_t *)b, 1.0, &r);
    ck_assert_uint_eq(r.mismatches, 1); /* integers exact */
}
END_TEST

START_TEST(test_ops_load_store_round_like_the_hardware)
{
    uint8_t buf[8];
    dv_ops_store(buf, DV_DT_F16, 0, 1.0 + 1.0 / 4096); /* below half an ulp: rounds to 1 */
    ck_assert_double_eq(dv_ops_load(buf, DV_DT_F16, 0), 1.0);
    ck_assert_double_eq(dv_ops_round(DV_DT_F16, 65504.0), 65504.0);
    ck_assert_double_eq(dv_ops_round(DV_DT_S8, 300.0), 127.0); /* saturates */
    ck_assert_double_eq(dv_ops_round(DV_DT_S32, -2.5), -2.0);  /* nearest even */
    ck_assert_double_eq(dv_ops_round(DV_DT_BF16, 1.0 + 1.0 / 64), 1.015625);
}
END_TEST

START_TEST(test_ops_plan_rejects_tensors_beyond_hbm)
{
    dvt_op_t r;
    char cmd[128];
    const dv_opdesc_t *op = first_with("shape");
    snprintf(cmd, sizeof cmd, "%s --shape 65536x65536x64", op->name);
    ck_assert_int_ne(dvt_op(&r, NULL, NULL, cmd, false, false), DV_OK);
    ck_assert_msg(strstr(r.err.msg, "hbm.capacity_bytes"), "%s", r.err.msg);
    dvt_op_free(&r);
}
END_TEST

Suite *dv_ops_suite(void)
{
    Suite *s = suite_create("ops");
    TCase *tc = tcase_create("ops");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_ops_every_row_of_the_table_is_linked_and_sane);
    tcase_add_test(tc, test_ops_defaults_plan_on_every_profile);
    tcase_add_test(tc, test_ops_parse_errors_name_the_parameter_and_limit);
    tcase_add_test(tc, test_ops_parse_values_and_bare_flags);
    tcase_add_test(tc, test_ops_parse_float_errors_name_the_parameter);
    tcase_add_test(tc, test_ops_parse_float_round_trips);
    tcase_add_test(tc, test_ops_list_shows_float_ranges);
    tcase_add_test(tc, test_ops_compare_uses_the_dtype_tolerance);
    tcase_add_test(tc, test_ops_load_store_round_like_the_hardware);
    tcase_add_test(tc, test_ops_plan_rejects_tensors_beyond_hbm);
    suite_add_tcase(s, tc);
    return s;
}
