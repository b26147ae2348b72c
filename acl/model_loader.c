/* acl/model_loader.c - the shim's side of acl/model_plugin.h: the C API of dv/model.h for the rest
 * of libascendcl.so, forwarding each call to the model plugin, which is loaded on the first call.
 * Linked into libascendcl.so only (executables link the model itself). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "dv/sim.h"
#include "model_plugin.h"

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static const dv_model_plugin_t *g_plugin; /* NULL until loaded, and when it cannot be */
static char g_path[PATH_MAX + 64];        /* the file tried */
static char g_why[1024];                  /* why it could not be loaded */

/* The plugin's path: DV_MODEL_PLUGIN_FILE beside the file this function is in (libascendcl.so). */
static int plugin_path(void)
{
    Dl_info self;
    if (!dladdr((const void *)&plugin_path, &self) || !self.dli_fname) {
        snprintf(g_why, sizeof g_why, "dladdr cannot tell where libascendcl.so is");
        return -1;
    }
    const char *slash = strrchr(self.dli_fname, '/');
    int dir = slash ? (int)(slash - self.dli_fname) : 1;
    if (snprintf(g_path, sizeof g_path, "%.*s/%s", dir, slash ? self.dli_fname : ".", DV_MODEL_PLUGIN_FILE) >=
        (int)sizeof g_path) {
        snprintf(g_why, sizeof g_why, "the path of libascendcl.so is too long");
        return -1;
    }
    return 0;
}

static void load(void)
{
    if (plugin_path() != 0)
        return;
    void *h = dlopen(g_path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(g_why, sizeof g_why, "%s", dlerror());
        return;
    }
    dv_model_plugin_fn entry;
    *(void **)&entry = dlsym(h, DV_MODEL_PLUGIN_SYMBOL);
    const dv_model_plugin_t *p = entry ? entry() : NULL;
    if (!p)
        snprintf(g_why, sizeof g_why, "no %s in it", DV_MODEL_PLUGIN_SYMBOL);
    else if (strcmp(p->version, DV_SIM_VERSION) != 0 || p->size != sizeof *p)
        snprintf(g_why, sizeof g_why, "it is from another build (dvsim %s, table of %zu bytes; want %s, %zu)",
                 p->version, p->size, DV_SIM_VERSION, sizeof *p);
    else {
        g_plugin = p;
        return;
    }
    dlclose(h);
}

static const dv_model_plugin_t *plugin(void)
{
    pthread_once(&g_once, load);
    return g_plugin;
}

int dv_model_plugin_failed(dv_error_t *err)
{
    return dv_error_set(err, DV_ERR_IO, NULL, 0, 0, "cannot load the SystemC model %s: %s",
                        g_path[0] ? g_path : DV_MODEL_PLUGIN_FILE, g_why);
}

#define FORWARD_FN(ret, name, params, args, fail) \
    ret name params                               \
    {                                             \
        const dv_model_plugin_t *p = plugin();    \
        return p ? p->name args : (fail);         \
    }
#define FORWARD_PROC(name, params, args)       \
    void name params                           \
    {                                          \
        const dv_model_plugin_t *p = plugin(); \
        if (p)                                 \
            p->name args;                      \
    }
DV_MODEL_ENTRY_POINTS(FORWARD_FN, FORWARD_PROC)
