/* tests/support/dvt.c */
#include "dvt.h"

#include "dv/sim.h"

#include <check.h>
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
    r->rc = dv_sim_gm_setup(cfg, &r->kernel->info, data, "test.trace", gm_base, &r->gm, &r->err);
    if (r->rc != DV_OK)
        return r->rc;
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
    dv_sim_gm_free(&r->gm);
    if (r->kernel)
        dv_trace_close(r->kernel);
    memset(r, 0, sizeof *r);
}
