/* acl/model_plugin.c - the plugin's side of acl/model_plugin.h: the table of the model's entry
 * points.  Linked into lib/dvsim/libdvsim_model.so only; the one symbol it exports besides sc_main. */
#include "dv/sim.h"
#include "model_plugin.h"

__attribute__((visibility("default"))) const dv_model_plugin_t *dv_model_plugin(void);

const dv_model_plugin_t *dv_model_plugin(void)
{
    static const dv_model_plugin_t table = {
        .version = DV_SIM_VERSION,
        .size = sizeof(dv_model_plugin_t),
#define ENTRY_FN(ret, name, params, args, fail) .name = name,
#define ENTRY_PROC(name, params, args) .name = name,
        DV_MODEL_ENTRY_POINTS(ENTRY_FN, ENTRY_PROC)
    };
    return &table;
}
