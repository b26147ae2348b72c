/* acl/model_plugin.h - the boundary between the AscendCL shim and the SystemC model.
 *
 * libascendcl.so does not link SystemC.  The model (model/, and the C modules it calls) is a
 * private plugin, lib/dvsim/libdvsim_model.so, that the shim loads with dlopen(RTLD_NOW |
 * RTLD_LOCAL) from the directory of libascendcl.so on the first call into the model
 * (acl/model_loader.c).  The plugin exports two names: DV_MODEL_PLUGIN_SYMBOL, a function returning
 * the table of the model's entry points (acl/model_plugin.c), and sc_main, which libsystemc.so
 * needs resolved when it loads (model/sc_main.c); being loaded RTLD_LOCAL, neither enters the host
 * program's namespace.  Executables (dvsim, the tests, the tools) link the model directly.
 *
 * DV_MODEL_ENTRY_POINTS lists the C API of dv/model.h, one line per function; the table, the
 * plugin's side and the shim's forwarding definitions are all generated from it:
 *   FN(return type, name, (parameters), (arguments), value returned when the plugin cannot load)
 *   PROC(name, (parameters), (arguments))     a void function: does nothing when it cannot load
 * `err` in a failure value is the function's dv_error_t * parameter; dv_model_plugin_failed fills
 * it with why the plugin did not load and returns its DV_ERR_ code. */
#ifndef DV_ACL_MODEL_PLUGIN_H
#define DV_ACL_MODEL_PLUGIN_H

#include <stddef.h>

#include "dv/model.h"

#define DV_MODEL_ENTRY_POINTS(FN, PROC)                                                                        \
    FN(int, dv_model_create, (const dv_config_t *cfg, dv_model_t **out, dv_error_t *err), (cfg, out, err),       \
       (*out = NULL, dv_model_plugin_failed(err)))                                                             \
    FN(int, dv_model_create_for,                                                                               \
       (const dv_config_t *cfg, const dv_kernel_info_t *info, dv_model_t **out, dv_error_t *err),              \
       (cfg, info, out, err), (*out = NULL, dv_model_plugin_failed(err)))                                      \
    FN(const dv_config_t *, dv_model_config, (const dv_model_t *m), (m), NULL)                                 \
    FN(int, dv_model_run,                                                                                      \
       (dv_model_t *m, dv_kernel_t *k, const dv_gm_t *gm, const dv_run_opts_t *opts, dv_counters_t *out,        \
        dv_error_t *err),                                                                                      \
       (m, k, gm, opts, out, err), dv_model_plugin_failed(err))                                                \
    PROC(dv_model_destroy, (dv_model_t * m), (m))                                                              \
    PROC(dv_counters_free, (dv_counters_t * c), (c))                                                           \
    PROC(dv_run_opts_default, (dv_run_opts_t * o), (o))

/* The plugin's file, relative to the directory of libascendcl.so, and its one entry symbol. */
#define DV_MODEL_PLUGIN_FILE "dvsim/libdvsim_model.so"
#define DV_MODEL_PLUGIN_SYMBOL "dv_model_plugin"

typedef struct dv_model_plugin {
    const char *version; /* DV_SIM_VERSION of the plugin's build: the shim loads only its own */
    size_t size;         /* sizeof (dv_model_plugin_t) in the plugin's build */
#define DV_MODEL_PLUGIN_FN(ret, name, params, args, fail) ret(*name) params;
#define DV_MODEL_PLUGIN_PROC(name, params, args) void(*name) params;
    DV_MODEL_ENTRY_POINTS(DV_MODEL_PLUGIN_FN, DV_MODEL_PLUGIN_PROC)
#undef DV_MODEL_PLUGIN_FN
#undef DV_MODEL_PLUGIN_PROC
} dv_model_plugin_t;

/* The plugin's entry (DV_MODEL_PLUGIN_SYMBOL): its table of entry points. */
typedef const dv_model_plugin_t *(*dv_model_plugin_fn)(void);

/* Shim side: fill err with why the plugin could not be loaded; returns its DV_ERR_ code. */
int dv_model_plugin_failed(dv_error_t *err);

#endif
