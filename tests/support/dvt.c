/* tests/support/dvt.c */
#include "dvt.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

void dvt_config(dv_config_t *cfg, const char *profile, const char *const *sets)
{
    dv_error_t err = {0};
    ck_assert_msg(dv_config_preset(cfg, profile ? profile : "ascend910b2", &err) == DV_OK, "%s", err.msg);
    for (int i = 0; sets && sets[i]; i++)
        ck_assert_msg(dv_config_set(cfg, sets[i], &err) == DV_OK, "%s", err.msg);
    ck_assert_msg(dv_config_validate(cfg, &err) == DV_OK, "%s", err.msg);
}

uint64_t dvt_t0(const dv_config_t *cfg) { return cfg->chip_kernel_start_cycles + cfg->chip_block_start_cycles; }

int dvt_run_text(dvt_run_t *r, const dv_config_t *cfg, const char *trace, bool data, uint64_t gm_base)
{
    memset(r, 0, sizeof *r);
    r->cfg = *cfg;
    r->rc = dv_trace_open_string(trace, "test.trace", &r->kernel, &r->err);
    if (r->rc != DV_OK)
        return r->rc;
    const dv_kernel_info_t *info = &r->kernel->info;
    r->gm.nargs = info->nargs;
    r->gm.data = calloc(info->nargs + 1, sizeof *r->gm.data);
    r->gm.bytes = calloc(info->nargs + 1, sizeof *r->gm.bytes);
    r->gm.addr = calloc(info->nargs + 1, sizeof *r->gm.addr);
    uint64_t a = gm_base;
    for (uint32_t i = 0; i < info->nargs; i++) {
        r->gm.bytes[i] = info->args[i].bytes;
        r->gm.addr[i] = a;
        a += (info->args[i].bytes + 511) / 512 * 512;
        if (data)
            r->gm.data[i] = calloc(1, info->args[i].bytes ? info->args[i].bytes : 1);
    }
    dv_run_opts_t o;
    dv_run_opts_default(&o);
    o.data = data;
    r->rc = dv_model_run(&r->cfg, r->kernel, &r->gm, &o, &r->cnt, &r->err);
    return r->rc;
}

void dvt_free(dvt_run_t *r)
{
    if (r->rc == DV_OK)
        dv_counters_free(&r->cnt);
    for (uint32_t i = 0; r->gm.data && i < r->gm.nargs; i++)
        free(r->gm.data[i]);
    free(r->gm.data);
    free(r->gm.bytes);
    free(r->gm.addr);
    if (r->kernel)
        dv_trace_close(r->kernel);
    memset(r, 0, sizeof *r);
}
