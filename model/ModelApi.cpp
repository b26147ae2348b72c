// model/ModelApi.cpp - the extern "C" face of the model: dv_model_t, one chip per profile.
//
// SystemC keeps its kernel state - time, events, processes, the module hierarchy - in a simulation
// context reached through two library globals, sc_curr_simcontext and sc_default_global_context.
// A model owns a context of its own: dv_model_create makes a fresh sc_simcontext and builds the
// chip's modules inside it, and every entry point below makes the model's context current for the
// duration of the call (ContextScope) and restores the previous one on the way out, so between
// calls the globals hold whatever SystemC itself put there and several models - of one profile or
// of different ones - coexist and interleave without touching each other.  dv_model_destroy
// destroys the modules inside their context, then the context.  Each model starts at time 0 with
// its own time resolution and an empty event queue, so a model's results equal a fresh process's.
//
// Alternatives considered: rebuilding one global chip whenever the profile changes (what the
// issue allows) keeps a process-wide global and loses a model's L2 and time when another profile
// runs in between; one process per profile (what the callers did) pays a fork and a cold start
// per run.  A context per model is what sc_simcontext was designed for in SystemC 2.3
// (sc_get_curr_simcontext is the only way the kernel finds it), and it was checked under valgrind
// with interleaved contexts and 200 create/destroy cycles.
#include <cstdlib>
#include <exception>
#include <memory>

#include "Chip.h"
#include "dv/model.h"

struct dv_model {
    dv_config_t cfg;
    sc_core::sc_simcontext *context = nullptr;
    std::unique_ptr<dv::Chip> chip;
};

namespace {

// Makes `c` SystemC's current context for the lifetime of the scope, then restores the previous.
class ContextScope {
public:
    explicit ContextScope(sc_core::sc_simcontext *c)
        : curr_(sc_core::sc_curr_simcontext), global_(sc_core::sc_default_global_context)
    {
        sc_core::sc_curr_simcontext = c;
        sc_core::sc_default_global_context = c;
    }
    ~ContextScope()
    {
        sc_core::sc_curr_simcontext = curr_;
        sc_core::sc_default_global_context = global_;
    }
    ContextScope(const ContextScope &) = delete;
    ContextScope &operator=(const ContextScope &) = delete;

private:
    sc_core::sc_simcontext *const curr_, *const global_;
};

} // namespace

extern "C" void dv_run_opts_default(dv_run_opts_t *o)
{
    o->data = true;
    o->hazards = true;
    o->on_slice = nullptr;
    o->slice_ctx = nullptr;
    o->warm_up = 0;
    o->max_hazards = DV_MAX_HAZARDS_DEFAULT;
    o->series = true;
}

// only: the kernel whose cores alone are built (Chip's constructor), or null for every core.
static int model_create(const dv_config_t *cfg, const dv_kernel_info_t *only, dv_model_t **out, dv_error_t *err)
{
    if (!out)
        return dv_error_set(err, DV_ERR_STATE, nullptr, 0, 0, "dv_model_create: NULL argument");
    *out = nullptr;
    if (!cfg)
        return dv_error_set(err, DV_ERR_STATE, nullptr, 0, 0, "dv_model_create: NULL argument");
    dv_model_t *m = nullptr;
    try {
        m = new dv_model_t;
        m->cfg = *cfg;
        m->context = new sc_core::sc_simcontext;
        ContextScope in(m->context);
        m->chip = std::make_unique<dv::Chip>("chip", m->cfg, only);
    } catch (const std::exception &e) {
        dv_model_destroy(m);
        return dv_error_set(err, DV_ERR_STATE, nullptr, 0, 0, "internal model error while building '%s': %s",
                            cfg->chip_name, e.what());
    }
    *out = m;
    return DV_OK;
}

extern "C" int dv_model_create(const dv_config_t *cfg, dv_model_t **out, dv_error_t *err)
{
    return model_create(cfg, nullptr, out, err);
}

extern "C" int dv_model_create_for(const dv_config_t *cfg, const dv_kernel_info_t *info, dv_model_t **out,
                                   dv_error_t *err)
{
    if (!info)
        return dv_error_set(err, DV_ERR_STATE, nullptr, 0, 0, "dv_model_create: NULL argument");
    return model_create(cfg, info, out, err);
}

extern "C" const dv_config_t *dv_model_config(const dv_model_t *m) { return m ? &m->cfg : nullptr; }

extern "C" int dv_model_run(dv_model_t *m, dv_kernel_t *k, const dv_gm_t *gm, const dv_run_opts_t *opts,
                            dv_counters_t *out, dv_error_t *err)
{
    if (!m || !k || !gm || !out)
        return dv_error_set(err, DV_ERR_STATE, nullptr, 0, 0, "dv_model_run: NULL argument");
    dv_run_opts_t o;
    dv_run_opts_default(&o);
    if (opts)
        o = *opts;
    try {
        ContextScope in(m->context);
        dv_run_opts_t w = o;
        w.on_slice = nullptr;
        w.slice_ctx = nullptr;
        for (unsigned i = 0; i < o.warm_up; i++) {
            dv_counters_t c{};
            const int rc = m->chip->run(k, gm, w, &c, err);
            dv_counters_free(&c);
            if (rc != DV_OK)
                return rc;
            m->chip->idle_between_runs();
        }
        return m->chip->run(k, gm, o, out, err);
    } catch (const std::exception &e) {
        return dv_error_set(err, DV_ERR_STATE, nullptr, 0, 0, "internal model error: %s", e.what());
    }
}

extern "C" void dv_model_destroy(dv_model_t *m)
{
    if (!m)
        return;
    if (m->context) {
        ContextScope in(m->context); // the modules unregister from their own context
        m->chip.reset();
        delete m->context;
    }
    delete m;
}

extern "C" void dv_counters_free(dv_counters_t *c)
{
    if (c) {
        free(c->cores);
        c->cores = nullptr;
        c->ncores = 0;
    }
}
