// model/ModelApi.cpp - the extern "C" face of the model.
#include <cstdlib>
#include <exception>
#include <memory>

#include "Chip.h"
#include "dv/model.h"

namespace {
std::unique_ptr<dv::Chip> g_chip;
}

extern "C" void dv_run_opts_default(dv_run_opts_t *o)
{
    o->data = true;
    o->hazards = true;
    o->on_slice = nullptr;
    o->slice_ctx = nullptr;
}

extern "C" int dv_model_run(const dv_config_t *cfg, dv_kernel_t *k, const dv_gm_t *gm, const dv_run_opts_t *opts,
                            dv_counters_t *out, dv_error_t *err)
{
    if (!cfg || !k || !gm || !out)
        return dv_error_set(err, DV_ERR_STATE, nullptr, 0, 0, "dv_model_run: NULL argument");
    dv_run_opts_t o;
    dv_run_opts_default(&o);
    if (opts)
        o = *opts;
    try {
        if (!g_chip) {
            setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
            g_chip = std::make_unique<dv::Chip>("chip", *cfg);
        } else if (!g_chip->same_layout(*cfg)) {
            return dv_error_set(err, DV_ERR_STATE, nullptr, 0, 0,
                                "the model was built for another profile; one process simulates one profile");
        }
        return g_chip->run(k, gm, o, out, err);
    } catch (const std::exception &e) {
        return dv_error_set(err, DV_ERR_STATE, nullptr, 0, 0, "internal model error: %s", e.what());
    }
}

extern "C" void dv_counters_free(dv_counters_t *c)
{
    if (c) {
        free(c->cores);
        c->cores = nullptr;
        c->ncores = 0;
    }
}
