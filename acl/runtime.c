/* acl/runtime.c - aclInit / aclFinalize, the recent error message, the device and its contexts.
 *
 * One simulated device (id 0) whose chip profile is chosen at aclInit: the embedded default
 * (ascend910b2), then the "dvsim" section of aclInit's JSON file, then the environment
 * (DVSIM_PROFILE = a preset name, DVSIM_CONFIG = a profile YAML file).  docs/ACL.md. */
#define _DEFAULT_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "internal.h"
#include "dvsim/acl_launch.h"
#include "dv/file.h"
#include "dv/sim.h"
#include "dv/yamldoc.h"
#include "dv/topology.h"

static struct {
    bool inited, ever_inited;
    int device_refs;          /* aclrtSetDevice calls not yet reset */
    dv_config_t cfg;
    char soc[DV_CONFIG_STR_MAX];
    dv_model_t *model;        /* cfg's model, from the session's first kernel to aclFinalize */
    unsigned warm_up;         /* DVSIM_WARM_UP: unmeasured runs of every kernel before its measured one */
} g_rt;

static _Thread_local char t_msg[1024];
static _Thread_local int t_last; /* the code of the last failure (aclrtGetLastError) */
static _Thread_local aclrtContext t_ctx;

/* ---------------------------------------------------------------- the lock */

static pthread_mutex_t g_lock;
static pthread_once_t g_lock_once = PTHREAD_ONCE_INIT;

static void lock_init(void)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&g_lock, &a);
    pthread_mutexattr_destroy(&a);
}

pthread_mutex_t *dv_acl_lock(void)
{
    pthread_once(&g_lock_once, lock_init);
    pthread_mutex_lock(&g_lock);
    return &g_lock;
}

void dv_acl_unlock(pthread_mutex_t **m)
{
    pthread_mutex_unlock(*m);
}

/* ---------------------------------------------------------------- live handles */

/* Every object the API hands out (context, data buffer, tensor, executor, ...) is registered here
 * with its kind, so a destroyed, foreign or garbage handle is recognised without reading it.
 * Open addressing on the pointer; deleted slots are tombstones until the table is rebuilt. */
typedef struct handle_slot {
    const void *p;      /* NULL: empty */
    uint32_t kind;      /* 0: tombstone */
} handle_slot_t;

static struct {
    handle_slot_t *slot;
    size_t cap, used;   /* used counts live entries and tombstones */
} g_handles;

static size_t handle_hash(const void *p, size_t cap)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x & (cap - 1);
}

static handle_slot_t *handle_find(const void *p)
{
    if (!g_handles.cap || !p)
        return NULL;
    for (size_t i = handle_hash(p, g_handles.cap);; i = (i + 1) & (g_handles.cap - 1)) {
        handle_slot_t *s = &g_handles.slot[i];
        if (!s->p)
            return NULL;
        if (s->p == p && s->kind)
            return s;
    }
}

int dv_acl_handle_add(const void *p, uint32_t kind)
{
    if ((g_handles.used + 1) * 2 > g_handles.cap) { /* rebuild at half load, dropping tombstones */
        size_t cap = g_handles.cap ? g_handles.cap * 2 : 256;
        handle_slot_t *old = g_handles.slot, *fresh = calloc(cap, sizeof *fresh);
        size_t oldcap = g_handles.cap;
        if (!fresh)
            return dv_acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory for a handle");
        g_handles.slot = fresh;
        g_handles.cap = cap;
        g_handles.used = 0;
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].p && old[i].kind)
                dv_acl_handle_add(old[i].p, old[i].kind);
        free(old);
    }
    size_t i = handle_hash(p, g_handles.cap);
    while (g_handles.slot[i].p && g_handles.slot[i].kind)
        i = (i + 1) & (g_handles.cap - 1);
    if (!g_handles.slot[i].p)
        g_handles.used++;
    g_handles.slot[i] = (handle_slot_t){p, kind};
    return ACL_SUCCESS;
}

bool dv_acl_handle_is(const void *p, uint32_t kind)
{
    const handle_slot_t *s = handle_find(p);
    return s && s->kind == kind;
}

void dv_acl_handle_del(const void *p)
{
    handle_slot_t *s = handle_find(p);
    if (s)
        s->kind = 0;
}

/* ---------------------------------------------------------------- errors */

int dv_acl_fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    t_last = code;
    int n = snprintf(t_msg, sizeof t_msg, "EZ9999: dvsim [%d]: ", code);
    vsnprintf(t_msg + n, sizeof t_msg - (size_t)n, fmt, ap);
    va_end(ap);
    return code;
}

int dv_acl_recode(int code)
{
    static const char head[] = "EZ9999: dvsim [";
    const char *end = strncmp(t_msg, head, sizeof head - 1) == 0 ? strstr(t_msg, "]: ") : NULL;
    t_last = code;
    if (end) { /* the number between the brackets replaced */
        char num[24];
        const size_t k = (size_t)snprintf(num, sizeof num, "%d", code), pre = sizeof head - 1;
        const size_t tail = strlen(end) + 1;
        if (pre + k + tail <= sizeof t_msg) {
            memmove(t_msg + pre + k, end, tail);
            memcpy(t_msg + pre, num, k);
        }
    }
    return code;
}

int dv_acl_fail_err(int code, const char *what, const dv_error_t *err)
{
    if (err->file[0] && err->line)
        return dv_acl_fail(code, "%s: %s:%d:%d: %s", what, err->file, err->line, err->col, err->msg);
    if (err->file[0])
        return dv_acl_fail(code, "%s: %s: %s", what, err->file, err->msg);
    return dv_acl_fail(code, "%s: %s", what, err->msg);
}

void dv_acl_restore_msg(const char *msg)
{
    snprintf(t_msg, sizeof t_msg, "%s", msg ? msg : "");
}

static aclError last_error(aclrtLastErrLevel level, bool forget, const char *api)
{
    if (level != ACL_RT_THREAD_LEVEL)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: level %d is not ACL_RT_THREAD_LEVEL (0)", api, (int)level);
    const int code = t_last;
    if (forget)
        t_last = ACL_SUCCESS;
    return code;
}

aclError aclrtGetLastError(aclrtLastErrLevel level) { return last_error(level, true, "aclrtGetLastError"); }

aclError aclrtPeekAtLastError(aclrtLastErrLevel level) { return last_error(level, false, "aclrtPeekAtLastError"); }

const char *aclGetRecentErrMsg(void)
{
    return t_msg[0] ? t_msg : NULL;
}

/* ---------------------------------------------------------------- state */

int dv_acl_check_init(const char *api)
{
    if (!g_rt.inited)
        return dv_acl_fail(ACL_ERROR_UNINITIALIZE, "%s: AscendCL is not initialized (call aclInit first%s)", api,
                           g_rt.ever_inited ? "; aclFinalize was called" : "");
    return ACL_SUCCESS;
}

int dv_acl_check_device(const char *api)
{
    int rc = dv_acl_check_init(api);
    if (rc == ACL_SUCCESS && g_rt.device_refs == 0)
        rc = dv_acl_fail(ACL_ERROR_RT_CONTEXT_NULL, "%s: no device is set (call aclrtSetDevice first)", api);
    return rc;
}

const dv_config_t *dv_acl_config(void)
{
    return g_rt.inited ? &g_rt.cfg : NULL;
}

unsigned dv_acl_warm_up(void)
{
    return g_rt.warm_up;
}

dv_model_t *dv_acl_model(dv_error_t *err)
{
    if (!g_rt.model && g_rt.inited && dv_model_create(&g_rt.cfg, &g_rt.model, err) != DV_OK)
        return NULL;
    if (!g_rt.model)
        dv_error_set(err, DV_ERR_STATE, NULL, 0, 0, "AscendCL is not initialized");
    return g_rt.model;
}

/* ---------------------------------------------------------------- aclInit's JSON */

/* The value node of key in a mapping node, or NULL. */
static yaml_node_t *map_get(yaml_document_t *doc, yaml_node_t *map, const char *key)
{
    if (!map || map->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        if (k && k->type == YAML_SCALAR_NODE && strcmp((const char *)k->data.scalar.value, key) == 0)
            return yaml_document_get_node(doc, p->value);
    }
    return NULL;
}

static const char *scalar(yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

#define MAX_PROFILE_OPS DV_ACL_INIT_OPS
typedef dv_acl_init_opts_t init_opts_t;

void dv_acl_init_opts_free(dv_acl_init_opts_t *o)
{
    for (int i = 0; i < o->nops; i++)
        free(o->strings[i]);
    o->nops = 0;
}

static int add_op(init_opts_t *o, dv_profile_op_kind_t kind, const char *arg, const char *path)
{
    if (o->nops == MAX_PROFILE_OPS)
        return dv_acl_fail(ACL_ERROR_PARSE_FILE, "aclInit: %s: more than %d profile settings", path, MAX_PROFILE_OPS);
    if (!(o->strings[o->nops] = strdup(arg)))
        return dv_acl_fail(ACL_ERROR_BAD_ALLOC, "aclInit: out of memory");
    o->ops[o->nops].kind = kind;
    o->ops[o->nops].arg = o->strings[o->nops];
    o->nops++;
    return ACL_SUCCESS;
}

int dv_acl_init_json(const char *text, size_t len, const char *path, dv_acl_init_opts_t *o)
{
    dv_error_t ferr;
    if (dv_yaml_depth_check(text, len, path, &ferr) != DV_OK)
        return dv_acl_fail(ACL_ERROR_PARSE_FILE, "aclInit: %s:%d:%d: %s", path, ferr.line, ferr.col, ferr.msg);
    yaml_parser_t parser;
    yaml_document_t doc;
    int rc = ACL_SUCCESS;
    bool have_doc = false;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    if (!yaml_parser_load(&parser, &doc)) { /* libyaml: 1 = success */
        rc = dv_acl_fail(ACL_ERROR_PARSE_FILE, "aclInit: %s:%zu:%zu: not valid JSON: %s", path,
                         parser.problem_mark.line + 1, parser.problem_mark.column + 1,
                         parser.problem ? parser.problem : "syntax error");
        goto cleanup;
    }
    have_doc = true;
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (!root) /* an empty file is an empty configuration */
        goto cleanup;
    if (root->type != YAML_MAPPING_NODE) {
        rc = dv_acl_fail(ACL_ERROR_PARSE_FILE, "aclInit: %s:%zu:%zu: the configuration must be a JSON object", path,
                         root->start_mark.line + 1, root->start_mark.column + 1);
        goto cleanup;
    }
    yaml_node_t *dv = map_get(&doc, root, "dvsim");
    const char *s;
    if (dv && dv->type != YAML_MAPPING_NODE) {
        rc = dv_acl_fail(ACL_ERROR_PARSE_FILE, "aclInit: %s:%zu:%zu: \"dvsim\" must be an object", path,
                         dv->start_mark.line + 1, dv->start_mark.column + 1);
        goto cleanup;
    }
    if ((s = scalar(map_get(&doc, dv, "profile"))) && (rc = add_op(o, DV_PROFILE_PRESET, s, path)) != ACL_SUCCESS)
        goto cleanup;
    if ((s = scalar(map_get(&doc, dv, "config")))) {
        /* a relative profile path is relative to the JSON file, as a trace's init files are to the trace */
        char full[1024];
        const char *slash = strrchr(path, '/');
        if (s[0] != '/' && slash)
            snprintf(full, sizeof full, "%.*s/%s", (int)(slash - path), path, s);
        else
            snprintf(full, sizeof full, "%s", s);
        if ((rc = add_op(o, DV_PROFILE_FILE, full, path)) != ACL_SUCCESS)
            goto cleanup;
    }
    yaml_node_t *set = map_get(&doc, dv, "set");
    if (set && set->type != YAML_SEQUENCE_NODE) {
        rc = dv_acl_fail(ACL_ERROR_PARSE_FILE, "aclInit: %s:%zu:%zu: \"dvsim\".\"set\" must be an array of strings",
                         path, set->start_mark.line + 1, set->start_mark.column + 1);
        goto cleanup;
    }
    for (yaml_node_item_t *it = set ? set->data.sequence.items.start : NULL; set && it < set->data.sequence.items.top;
         it++) {
        yaml_node_t *n = yaml_document_get_node(&doc, *it);
        if (!scalar(n)) {
            rc = dv_acl_fail(ACL_ERROR_PARSE_FILE, "aclInit: %s:%zu:%zu: \"set\" entries must be strings", path,
                             n->start_mark.line + 1, n->start_mark.column + 1);
            goto cleanup;
        }
        if ((rc = add_op(o, DV_PROFILE_SET, scalar(n), path)) != ACL_SUCCESS)
            goto cleanup;
    }
    yaml_node_t *prof = map_get(&doc, root, "profiler");
    const char *sw = scalar(map_get(&doc, prof, "switch"));
    if (sw && strcmp(sw, "on") == 0) {
        const char *out = scalar(map_get(&doc, prof, "output"));
        snprintf(o->prof_dir, sizeof o->prof_dir, "%s", out && *out ? out : ".");
    }

cleanup:
    if (have_doc)
        yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    return rc;
}

static int json_read(const char *path, init_opts_t *o)
{
    dv_error_t ferr;
    char *text;
    size_t len;
    if (dv_read_file(path, NULL, &text, &len, &ferr) != DV_OK)
        return dv_acl_fail(ACL_ERROR_INVALID_FILE, "aclInit: cannot open config file '%s': %s", path, ferr.msg);
    const int rc = dv_acl_init_json(text, len, path, o);
    free(text);
    return rc;
}

/* ---------------------------------------------------------------- init / finalize */

/* The profile settings of the environment (DVSIM_PROFILE, then DVSIM_CONFIG), after o's. */
static int env_ops(init_opts_t *o)
{
    const char *env_profile = getenv("DVSIM_PROFILE"), *env_config = getenv("DVSIM_CONFIG");
    int rc = ACL_SUCCESS;
    if (env_profile && *env_profile)
        rc = add_op(o, DV_PROFILE_PRESET, env_profile, "DVSIM_PROFILE");
    if (rc == ACL_SUCCESS && env_config && *env_config)
        rc = add_op(o, DV_PROFILE_FILE, env_config, "DVSIM_CONFIG");
    return rc;
}

aclError dvsimChipProfile(const char *preset, dv_config_t *profile)
{
    DV_ACL_LOCKED();
    init_opts_t o;
    dv_error_t err;
    int rc = ACL_SUCCESS;
    memset(&o, 0, sizeof o);
    if (!profile)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "dvsimChipProfile: profile is NULL");
    if (preset && *preset)
        rc = add_op(&o, DV_PROFILE_PRESET, preset, "dvsimChipProfile");
    else
        rc = env_ops(&o);
    if (rc == ACL_SUCCESS && dv_sim_profile(o.ops, o.nops, profile, &err) != DV_OK)
        rc = dv_acl_fail_err(ACL_ERROR_INVALID_PARAM, "dvsimChipProfile", &err);
    dv_acl_init_opts_free(&o);
    return rc;
}

/* The SoC name CANN reports for a profile: "ascend910b2" -> "Ascend910B2". */
static void soc_name(const dv_config_t *cfg, char *out, size_t cap)
{
    snprintf(out, cap, "%s", cfg->chip_name);
    if (strncmp(out, "ascend", 6) == 0) {
        out[0] = 'A';
        for (char *p = out + 6; *p; p++)
            *p = (char)toupper((unsigned char)*p);
    }
}

/* aclInit's work: the profile (JSON file, then the environment), the SoC name, profiling. */
static int init_session(const char *configPath)
{
    init_opts_t o;
    dv_error_t err;
    int rc = ACL_SUCCESS;
    memset(&o, 0, sizeof o);
    if (configPath && *configPath && (rc = json_read(configPath, &o)) != ACL_SUCCESS)
        goto cleanup;
    if ((rc = env_ops(&o)) != ACL_SUCCESS)
        goto cleanup;
    if (dv_sim_profile(o.ops, o.nops, &g_rt.cfg, &err) != DV_OK) {
        rc = dv_acl_fail_err(ACL_ERROR_INVALID_PARAM, "aclInit: chip profile", &err);
        goto cleanup;
    }
    soc_name(&g_rt.cfg, g_rt.soc, sizeof g_rt.soc);
    const char *env_warm = getenv("DVSIM_WARM_UP");
    g_rt.warm_up = 0;
    if (env_warm && *env_warm) {
        char *end = NULL;
        const unsigned long n = env_warm[0] >= '0' && env_warm[0] <= '9' ? strtoul(env_warm, &end, 10) : 0;
        if (!end || *end || n > 100) {
            rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclInit: DVSIM_WARM_UP: '%s' is not a number of runs from 0 to 100",
                             env_warm);
            goto cleanup;
        }
        g_rt.warm_up = (unsigned)n;
    }
    g_rt.inited = true; /* profiling needs the profile */
    g_rt.device_refs = 0;
    const char *env_prof = getenv("DVSIM_PROFILE_OUT");
    const char *dir = env_prof && *env_prof ? env_prof : o.prof_dir[0] ? o.prof_dir : NULL;
    if (dir && (rc = dv_acl_prof_env_start(dir)) != ACL_SUCCESS)
        g_rt.inited = false;
    g_rt.ever_inited = g_rt.ever_inited || g_rt.inited;

cleanup:
    dv_acl_init_opts_free(&o);
    return rc;
}

aclError aclInit(const char *configPath)
{
    DV_ACL_LOCKED();
    if (g_rt.inited)
        return dv_acl_fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit: AscendCL is already initialized");
    return init_session(configPath);
}

/* The device finishes what is queued (a failure stays recorded), then forgets every stream, event
 * and allocation. */
static void device_release(void)
{
    dv_acl_drain();
    dv_acl_streams_reset();
    dv_acl_mem_reset();
    g_rt.device_refs = 0;
    t_ctx = NULL;
}

aclError aclFinalize(void)
{
    DV_ACL_LOCKED();
    if (dv_acl_refuse_while_draining("aclFinalize") != ACL_SUCCESS)
        return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
    if (!g_rt.inited)
        return g_rt.ever_inited ? dv_acl_fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize: AscendCL is already finalized")
                                : dv_acl_fail(ACL_ERROR_UNINITIALIZE, "aclFinalize: aclInit was never called");
    device_release();
    dv_acl_prof_shutdown();
    dv_model_destroy(g_rt.model);
    g_rt.model = NULL;
    g_rt.inited = false;
    return ACL_SUCCESS;
}

aclError aclFinalizeReference(uint64_t *refCount)
{
    DV_ACL_LOCKED();
    int rc = aclFinalize();
    if (rc == ACL_SUCCESS && refCount)
        *refCount = 0;
    return rc;
}

aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion)
{
    DV_ACL_LOCKED();
    if (!majorVersion || !minorVersion || !patchVersion)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetVersion: NULL argument");
    *majorVersion = ACL_MAJOR_VERSION;
    *minorVersion = ACL_MINOR_VERSION;
    *patchVersion = ACL_PATCH_VERSION;
    return ACL_SUCCESS;
}

/* Before aclInit (CANN answers from the driver), the SoC of the profile the environment chooses
 * (DVSIM_PROFILE / DVSIM_CONFIG, else the default); after it, the session's. */
const char *aclrtGetSocName(void)
{
    DV_ACL_LOCKED();
    static char pre[DV_CONFIG_STR_MAX];
    if (g_rt.inited)
        return g_rt.soc;
    init_opts_t o;
    dv_error_t err;
    dv_config_t cfg;
    memset(&o, 0, sizeof o);
    int rc = env_ops(&o);
    if (rc == ACL_SUCCESS && dv_sim_profile(o.ops, o.nops, &cfg, &err) != DV_OK)
        rc = dv_acl_fail_err(ACL_ERROR_INVALID_PARAM, "aclrtGetSocName: chip profile", &err);
    dv_acl_init_opts_free(&o);
    if (rc != ACL_SUCCESS)
        return NULL;
    soc_name(&cfg, pre, sizeof pre);
    return pre;
}

/* The CANN packages whose version aclsysGetVersionStr / Num report: the interface release the
 * headers follow (include/acl/acl_rt.h). */
static const struct {
    const char *name;
    int major, minor, patch;
} pkg_versions[] = {
    {"runtime", 8, 3, 0},
    {"cann", 8, 3, 0},
};

static int pkg_find(const char *api, const char *pkgName, int *i)
{
    if (!pkgName)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: pkgName is NULL", api);
    for (*i = 0; *i < (int)(sizeof pkg_versions / sizeof pkg_versions[0]); (*i)++)
        if (strcmp(pkgName, pkg_versions[*i].name) == 0)
            return ACL_SUCCESS;
    return dv_acl_fail(ACL_ERROR_INVALID_PARAM,
                       "%s: package '%s' is not installed (dvsim's AscendCL provides 'runtime' and 'cann'; no "
                       "driver or firmware is simulated)", api, pkgName);
}

aclError aclsysGetVersionStr(char *pkgName, char *versionStr)
{
    DV_ACL_LOCKED();
    int i = 0;
    int rc = pkg_find("aclsysGetVersionStr", pkgName, &i);
    if (rc == ACL_SUCCESS && !versionStr)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclsysGetVersionStr: versionStr is NULL");
    if (rc == ACL_SUCCESS)
        snprintf(versionStr, ACL_PKG_VERSION_MAX_SIZE, "%d.%d.%d", pkg_versions[i].major, pkg_versions[i].minor,
                 pkg_versions[i].patch);
    return rc;
}

aclError aclsysGetVersionNum(char *pkgName, int32_t *versionNum)
{
    DV_ACL_LOCKED();
    int i = 0;
    int rc = pkg_find("aclsysGetVersionNum", pkgName, &i);
    if (rc == ACL_SUCCESS && !versionNum)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclsysGetVersionNum: versionNum is NULL");
    if (rc == ACL_SUCCESS) /* release versions only: larger is newer, as CANN's numbering promises */
        *versionNum = pkg_versions[i].major * 1000000 + pkg_versions[i].minor * 10000 + pkg_versions[i].patch * 100;
    return rc;
}

/* ---------------------------------------------------------------- device */

static int check_device_id(const char *api, int64_t id)
{
    int rc = dv_acl_check_init(api);
    if (rc == ACL_SUCCESS && id != 0)
        rc = dv_acl_fail(ACL_ERROR_RT_INVALID_DEVICEID, "%s: device %lld does not exist (dvsim simulates device 0)",
                         api, (long long)id);
    return rc;
}

aclError aclrtSetDevice(int32_t deviceId)
{
    DV_ACL_LOCKED();
    /* As CANN's runtime, a process that never called aclInit is initialised by its first
     * aclrtSetDevice (Ascend C programs launched with <<<>>> do not call aclInit). */
    if (!g_rt.inited && !g_rt.ever_inited) {
        int irc = init_session(NULL);
        if (irc != ACL_SUCCESS)
            return irc;
    }
    int rc = check_device_id("aclrtSetDevice", deviceId);
    if (rc == ACL_SUCCESS)
        g_rt.device_refs++;
    return rc;
}

aclError aclrtResetDevice(int32_t deviceId)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_refuse_while_draining("aclrtResetDevice");
    if (rc == ACL_SUCCESS)
        rc = check_device_id("aclrtResetDevice", deviceId);
    if (rc == ACL_SUCCESS && g_rt.device_refs == 0)
        rc = dv_acl_fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtResetDevice: device %d is not set", deviceId);
    if (rc == ACL_SUCCESS && --g_rt.device_refs == 0)
        device_release();
    return rc;
}

aclError aclrtResetDeviceForce(int32_t deviceId)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_refuse_while_draining("aclrtResetDeviceForce");
    if (rc == ACL_SUCCESS)
        rc = check_device_id("aclrtResetDeviceForce", deviceId);
    if (rc == ACL_SUCCESS && g_rt.device_refs)
        device_release();
    return rc;
}

aclError aclrtGetDevice(int32_t *deviceId)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_device("aclrtGetDevice");
    if (rc == ACL_SUCCESS && !deviceId)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDevice: deviceId is NULL");
    if (rc == ACL_SUCCESS)
        *deviceId = 0;
    return rc;
}

aclError aclrtGetDeviceCount(uint32_t *count)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_init("aclrtGetDeviceCount");
    if (rc == ACL_SUCCESS && !count)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount: count is NULL");
    if (rc == ACL_SUCCESS)
        *count = 1;
    return rc;
}

aclError aclrtGetRunMode(aclrtRunMode *runMode)
{
    DV_ACL_LOCKED();
    int rc = ACL_SUCCESS; /* allowed before aclInit, as in CANN */
    if (!runMode)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetRunMode: runMode is NULL");
    if (rc == ACL_SUCCESS)
        *runMode = ACL_HOST;
    return rc;
}

static int64_t vector_cores(const dv_config_t *c)
{
    return (int64_t)dv_topo_kernel_cores(c, DV_KIND_VECTOR);
}

aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value)
{
    DV_ACL_LOCKED();
    int rc = check_device_id("aclrtGetDeviceInfo", deviceId);
    if (rc == ACL_SUCCESS && !value)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceInfo: value is NULL");
    if (rc != ACL_SUCCESS)
        return rc;
    const dv_config_t *c = &g_rt.cfg;
    switch (attr) {
    case ACL_DEV_ATTR_AICORE_CORE_NUM: case ACL_DEV_ATTR_CUBE_CORE_NUM: *value = (int64_t)c->chip_ai_cores; break;
    case ACL_DEV_ATTR_VECTOR_CORE_NUM: *value = vector_cores(c); break;
    case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE: *value = (int64_t)c->hbm_capacity_bytes; break;
    case ACL_DEV_ATTR_L2_CACHE_SIZE: *value = (int64_t)c->l2_size_bytes; break;
    default:
        return dv_acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtGetDeviceInfo: attribute %d is not simulated (no AI CPU)",
                           (int)attr);
    }
    return ACL_SUCCESS;
}

aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t *value)
{
    DV_ACL_LOCKED();
    int rc = check_device_id("aclGetDeviceCapability", deviceId);
    if (rc == ACL_SUCCESS && !value)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclGetDeviceCapability: value is NULL");
    if (rc != ACL_SUCCESS)
        return rc;
    switch (deviceInfo) {
    case ACL_DEVICE_INFO_AI_CORE_NUM: *value = (int64_t)g_rt.cfg.chip_ai_cores; break;
    case ACL_DEVICE_INFO_VECTOR_CORE_NUM: *value = vector_cores(&g_rt.cfg); break;
    case ACL_DEVICE_INFO_L2_SIZE: *value = (int64_t)g_rt.cfg.l2_size_bytes; break;
    default: return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclGetDeviceCapability: unknown info %d", (int)deviceInfo);
    }
    return ACL_SUCCESS;
}

/* ---------------------------------------------------------------- contexts */

typedef struct dv_acl_ctx {
    int32_t device;
} dv_acl_ctx_t;
#define CTX_MAGIC 0xC0C7E47u

aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId)
{
    DV_ACL_LOCKED();
    int rc = check_device_id("aclrtCreateContext", deviceId);
    if (rc == ACL_SUCCESS && !context)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateContext: context is NULL");
    if (rc != ACL_SUCCESS)
        return rc;
    dv_acl_ctx_t *c = malloc(sizeof *c);
    if (!c)
        return dv_acl_fail(ACL_ERROR_BAD_ALLOC, "aclrtCreateContext: out of memory");
    *c = (dv_acl_ctx_t){deviceId};
    if ((rc = dv_acl_handle_add(c, CTX_MAGIC)) != ACL_SUCCESS) {
        free(c);
        return rc;
    }
    g_rt.device_refs++; /* a context holds its device, as aclrtSetDevice does */
    *context = c;
    t_ctx = c;
    return ACL_SUCCESS;
}

static bool ctx_valid(aclrtContext context)
{
    return dv_acl_handle_is(context, CTX_MAGIC);
}

aclError aclrtDestroyContext(aclrtContext context)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_refuse_while_draining("aclrtDestroyContext");
    if (rc == ACL_SUCCESS)
        rc = dv_acl_check_init("aclrtDestroyContext");
    if (rc == ACL_SUCCESS && !ctx_valid(context))
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyContext: not a live context");
    if (rc != ACL_SUCCESS)
        return rc;
    dv_acl_handle_del(context);
    free(context);
    if (t_ctx == context)
        t_ctx = NULL;
    if (g_rt.device_refs > 0 && --g_rt.device_refs == 0)
        device_release();
    return ACL_SUCCESS;
}

aclError aclrtSetCurrentContext(aclrtContext context)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_init("aclrtSetCurrentContext");
    if (rc == ACL_SUCCESS && !ctx_valid(context))
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtSetCurrentContext: not a live context");
    if (rc == ACL_SUCCESS)
        t_ctx = context;
    return rc;
}

aclError aclrtGetCurrentContext(aclrtContext *context)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_init("aclrtGetCurrentContext");
    if (rc == ACL_SUCCESS && !context)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext: context is NULL");
    if (rc == ACL_SUCCESS && !t_ctx)
        rc = dv_acl_fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetCurrentContext: no current context on this thread");
    if (rc == ACL_SUCCESS)
        *context = t_ctx;
    return rc;
}
