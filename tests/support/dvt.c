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

dv_model_t *dvt_model(const dv_config_t *cfg)
{
    dv_model_t *m = NULL;
    dv_error_t err = {0};
    ck_assert_msg(dv_model_create(cfg, &m, &err) == DV_OK, "%s", err.msg);
    return m;
}

int dvt_run_text_on(dvt_run_t *r, dv_model_t *m, const char *trace, bool data, uint64_t gm_base)
{
    memset(r, 0, sizeof *r);
    r->cfg = *dv_model_config(m);
    r->rc = dv_trace_open_string(trace, "test.trace", &r->kernel, &r->err);
    if (r->rc != DV_OK)
        return r->rc;
    r->rc = dv_sim_gm_setup(&r->cfg, &r->kernel->info, data, "test.trace", gm_base, &r->gm, &r->err);
    if (r->rc != DV_OK)
        return r->rc;
    dv_run_opts_t o;
    dv_run_opts_default(&o);
    o.data = data;
    r->rc = dv_model_run(m, r->kernel, &r->gm, &o, &r->cnt, &r->err);
    return r->rc;
}

int dvt_run_text(dvt_run_t *r, const dv_config_t *cfg, const char *trace, bool data, uint64_t gm_base)
{
    dv_model_t *m = dvt_model(cfg);
    dvt_run_text_on(r, m, trace, data, gm_base);
    dv_model_destroy(m);
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

int dvt_op(dvt_op_t *r, const char *profile, const char *const *sets, const char *cmd, bool data, bool check)
{
    char buf[1024], *argv[64];
    dv_profile_op_t pops[16];
    int argc = 0, nops = 0;
    dv_sim_opts_t o;
    dv_sim_result_t res;

    memset(r, 0, sizeof *r);
    snprintf(buf, sizeof buf, "%s", cmd);
    for (char *t = strtok(buf, " "); t && argc < 64; t = strtok(NULL, " "))
        argv[argc++] = t;
    ck_assert_msg(argc >= 1, "dvt_op: empty command");
    if (profile) {
        pops[nops].kind = DV_PROFILE_PRESET;
        pops[nops++].arg = profile;
    }
    for (int i = 0; sets && sets[i] && nops < 16; i++) {
        pops[nops].kind = DV_PROFILE_SET;
        pops[nops++].arg = sets[i];
    }
    dv_sim_opts_default(&o);
    o.profile_ops = pops;
    o.nprofile_ops = nops;
    o.op = argv[0];
    o.op_argc = argc - 1;
    o.op_argv = argv + 1;
    o.data = data;
    o.check = check;
    r->rc = dv_sim_execute(&o, &res, &r->err);
    r->cfg = res.cfg;
    r->plan = res.plan;
    r->check = res.check;
    if (r->rc == DV_OK) {
        r->cnt = res.cnt; /* ownership moves to r */
        res.have_cnt = false;
        if (check && r->check.mismatches)
            r->rc = dv_error_set(&r->err, DV_ERR_RANGE, NULL, 0, 0,
                                 "%s: %llu of %llu elements outside the tolerance; first: %s[%llu] = %g, expected %g",
                                 cmd, (unsigned long long)r->check.mismatches, (unsigned long long)r->check.compared,
                                 r->check.arg, (unsigned long long)r->check.first_bad, r->check.first_got,
                                 r->check.first_want);
    }
    dv_sim_result_free(&res);
    return r->rc;
}

void dvt_op_free(dvt_op_t *r)
{
    dv_counters_free(&r->cnt);
    memset(r, 0, sizeof *r);
}

double dvt_ratio(const dv_counters_t *c, dv_core_type_t type, dv_pipe_t p)
{
    uint64_t busy = 0, cycles = 0;
    for (uint32_t i = 0; i < c->ncores; i++) {
        const dv_core_counters_t *k = &c->cores[i];
        if (k->type != type || k->instructions == 0)
            continue;
        busy += k->pipe_busy[p];
        cycles += k->last_cycle - k->first_cycle;
    }
    return cycles ? (double)busy / (double)cycles : 0.0;
}

void dvt_check_step_op(const char *profile, const char *op, bool f32, int key)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "%s --shape 1000 --dtype %s --cores 2", op, f32 ? "fp32" : "fp16");
    dvt_op_t r;
    const int rc = dvt_op(&r, profile, NULL, cmd, true, true);
    ck_assert_msg(rc == DV_OK, "%s on %s: %s", cmd, profile, r.err.msg);
    ck_assert_uint_eq(r.check.compared, 1000);
    ck_assert_uint_eq(r.check.mismatches, 0);
    ck_assert_msg(r.cnt.op_count[key] > 0, "%s on %s: no %s issued", cmd, profile, dv_op_spec((dv_op_t)key)->mnemonic);
    ck_assert_msg(f32 || r.cnt.op_count[DV_OP_vconv] > 0, "%s: fp16 computes in fp32 through vconv", cmd);
    dvt_op_free(&r);
}
