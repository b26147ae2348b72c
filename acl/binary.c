/* acl/binary.c - kernel binaries loaded at run time (acl/acl_rt.h, "kernel binaries"):
 * aclrtBinaryLoadFromFile / FromData, aclrtBinaryGetFunction, aclrtBinaryUnLoad, the kernel argument
 * list (aclrtKernelArgs*) and the launches by function handle (aclrtLaunchKernel, ...WithConfig, ...V2).
 *
 * A kernel binary is a shared library built with `dvcc -shared` (ascendc/dvcc.c): for each __global__
 * kernel it defines an extern "C" entry dvsim_kernel_entry_<name>(blockDim, stream, args, argsSize)
 * that unpacks the argument blob and launches the kernel (dvac::launch_packed).  Loading is dlopen,
 * a function is the entry's address, and a launch calls it. */
#define _DEFAULT_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "dv/file.h"

#define BIN_MAGIC 0xB1A7F11Eu
#define FUNC_MAGIC 0xF0AC71u
#define ARGS_MAGIC 0xA5C5A7u
#define PARAM_MAGIC 0x9A7A3u
#define ENTRY_PREFIX "dvsim_kernel_entry_"

/* The entry dvcc writes for every kernel (its return value is the launch's aclError). */
typedef uint32_t (*entry_fn)(uint32_t blockDim, void *stream, const void *args, size_t argsSize);

typedef struct bin bin_t;
typedef struct args args_t;

typedef struct func {
    bin_t *bin;
    struct func *next;
    char name[128];
    entry_fn entry;
} func_t;

/* One parameter of an argument list: `size` bytes at `offset` of the blob.  A placeholder is a
 * pointer slot: at each launch its buffer's bytes are copied to fresh device memory whose address
 * goes into the slot. */
typedef struct param {
    args_t *args;
    size_t offset, size;
    bool placeholder;
    void *buffer;          /* placeholder: host bytes, from aclrtKernelArgsGetPlaceHolderBuffer */
    size_t buffer_size;
} param_t;

struct args {
    func_t *func;
    args_t *next;
    uint8_t *data;
    size_t size, cap;
    param_t **param;
    size_t nparam;
    bool finalized;
};

struct bin {
    void *dl;
    char *path;
    func_t *funcs;
    args_t *args;
};

/* ---------------------------------------------------------------- handles */

static int bin_get(aclrtBinHandle h, const char *api, bin_t **out)
{
    if (!h || !dv_acl_handle_is(h, BIN_MAGIC))
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: binHandle %p is not a loaded kernel binary", api, h);
    *out = h;
    return ACL_SUCCESS;
}

static int func_get(aclrtFuncHandle h, const char *api, func_t **out)
{
    if (!h || !dv_acl_handle_is(h, FUNC_MAGIC))
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "%s: funcHandle %p is not a kernel function (aclrtBinaryGetFunction) of a loaded binary",
                           api, h);
    *out = h;
    return ACL_SUCCESS;
}

static int args_get(aclrtArgsHandle h, const char *api, args_t **out)
{
    if (!h || !dv_acl_handle_is(h, ARGS_MAGIC))
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "%s: argsHandle %p is not an argument list (aclrtKernelArgsInit) of a loaded binary", api,
                           h);
    *out = h;
    return ACL_SUCCESS;
}

static void args_free(args_t *a)
{
    for (size_t i = 0; i < a->nparam; i++) {
        dv_acl_handle_del(a->param[i]);
        free(a->param[i]->buffer);
        free(a->param[i]);
    }
    dv_acl_handle_del(a);
    free(a->param);
    free(a->data);
    free(a);
}

static void bin_free(bin_t *b)
{
    while (b->args) {
        args_t *a = b->args;
        b->args = a->next;
        args_free(a);
    }
    while (b->funcs) {
        func_t *f = b->funcs;
        b->funcs = f->next;
        dv_acl_handle_del(f);
        free(f);
    }
    dv_acl_handle_del(b);
    if (b->dl)
        dlclose(b->dl);
    free(b->path);
    free(b);
}

/* ---------------------------------------------------------------- loading */

/* The load options: every documented one is accepted (lazy loading and the core-type magic change
 * nothing here: a kernel's kind comes from what its code does), AI CPU kernels are not modelled. */
static int check_options(const aclrtBinaryLoadOptions *o, const char *api)
{
    if (!o)
        return ACL_SUCCESS;
    if (o->numOpt && !o->options)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: options->numOpt is %zu but options->options is NULL", api,
                           o->numOpt);
    for (size_t i = 0; i < o->numOpt; i++) {
        const aclrtBinaryLoadOption *p = &o->options[i];
        switch (p->type) {
        case ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD:
            if (p->value.isLazyLoad > 1)
                return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: option %zu: isLazyLoad %u is not 0 or 1", api, i,
                                   p->value.isLazyLoad);
            break;
        case ACL_RT_BINARY_LOAD_OPT_MAGIC:
            if (p->value.magic != ACL_RT_BINARY_MAGIC_ELF_AICORE &&
                p->value.magic != ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE &&
                p->value.magic != ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE)
                return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: option %zu: unknown magic 0x%x", api, i,
                                   p->value.magic);
            break;
        case ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE:
            return dv_acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                               "%s: option %zu: AI CPU kernels (ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE) are not "
                               "modelled", api, i);
        default:
            return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: option %zu: unknown option type %d", api, i,
                               (int)p->type);
        }
    }
    return ACL_SUCCESS;
}

/* dlopen the library at path (named `what` in messages) into a new binary handle. */
static int load(const char *api, const char *path, const char *what, aclrtBinHandle *binHandle)
{
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!dl)
        return dv_acl_fail(ACL_ERROR_INVALID_FILE, "%s: %s: cannot load it as a kernel library: %s", api, what,
                           dlerror());
    bin_t *b = calloc(1, sizeof *b);
    char *p = strdup(what);
    int rc = b && p ? dv_acl_handle_add(b, BIN_MAGIC) : dv_acl_fail(ACL_ERROR_BAD_ALLOC, "%s: out of memory", api);
    if (rc != ACL_SUCCESS) {
        free(b);
        free(p);
        dlclose(dl);
        return rc;
    }
    b->dl = dl;
    b->path = p;
    *binHandle = b;
    return ACL_SUCCESS;
}

/* ACL_SUCCESS when the first bytes are an ELF header, else the error naming what. */
static int check_elf(const unsigned char *head, size_t n, const char *api, const char *what)
{
    if (n < 4 || memcmp(head, "\x7f" "ELF", 4) != 0)
        return dv_acl_fail(ACL_ERROR_INVALID_FILE,
                           "%s: %s is not an ELF shared library (a kernel binary is built with dvcc -shared)", api,
                           what);
    return ACL_SUCCESS;
}

aclError aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options, aclrtBinHandle *binHandle)
{
    DV_ACL_LOCKED();
    const char *api = "aclrtBinaryLoadFromFile";
    int rc = dv_acl_check_device(api);
    if (rc != ACL_SUCCESS)
        return rc;
    if (!binPath || !binHandle)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: binPath or binHandle is NULL", api);
    *binHandle = NULL;
    if ((rc = check_options(options, api)) != ACL_SUCCESS)
        return rc;
    dv_error_t open_err;
    FILE *f;
    if (dv_open_regular(binPath, NULL, &f, &open_err) != DV_OK)
        return dv_acl_fail(ACL_ERROR_INVALID_FILE, "%s: cannot open %s: %s", api, binPath, dv_open_reason(&open_err));
    unsigned char head[4];
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    if ((rc = check_elf(head, n, api, binPath)) != ACL_SUCCESS)
        return rc;
    /* dlopen searches the library path for a name without a slash: a file name means that file */
    char path[4096];
    snprintf(path, sizeof path, "%s%s", strchr(binPath, '/') ? "" : "./", binPath);
    return load(api, path, binPath, binHandle);
}

aclError aclrtBinaryLoadFromData(const void *data, size_t length, const aclrtBinaryLoadOptions *options,
                                 aclrtBinHandle *binHandle)
{
    DV_ACL_LOCKED();
    const char *api = "aclrtBinaryLoadFromData";
    int rc = dv_acl_check_device(api);
    if (rc != ACL_SUCCESS)
        return rc;
    if (!data || !binHandle)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: data or binHandle is NULL", api);
    *binHandle = NULL;
    if ((rc = check_options(options, api)) != ACL_SUCCESS || (rc = check_elf(data, length, api, "data")) != ACL_SUCCESS)
        return rc;
    /* dlopen needs a file: the bytes go to a temporary one, removed once loaded */
    const char *tmpdir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/dvsim-kernel-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        return dv_acl_fail(ACL_ERROR_RT_FILE_WRITE, "%s: cannot create a temporary file %s: %s", api, path,
                           strerror(errno));
    size_t done = 0;
    while (done < length) {
        ssize_t w = write(fd, (const char *)data + done, length - done);
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    close(fd);
    if (done < length)
        rc = dv_acl_fail(ACL_ERROR_RT_FILE_WRITE, "%s: cannot write %zu bytes to %s", api, length, path);
    else
        rc = load(api, path, "data", binHandle);
    unlink(path);
    return rc;
}

aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName, aclrtFuncHandle *funcHandle)
{
    DV_ACL_LOCKED();
    const char *api = "aclrtBinaryGetFunction";
    bin_t *b = NULL;
    int rc = bin_get(binHandle, api, &b);
    if (rc != ACL_SUCCESS)
        return rc;
    if (!kernelName || !funcHandle)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: kernelName or funcHandle is NULL", api);
    *funcHandle = NULL;
    for (func_t *f = b->funcs; f; f = f->next)
        if (strcmp(f->name, kernelName) == 0) {
            *funcHandle = f;
            return ACL_SUCCESS;
        }
    char sym[sizeof ENTRY_PREFIX + 128];
    if (strlen(kernelName) >= 128)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: kernel name '%.40s...' is longer than 127 characters", api,
                           kernelName);
    snprintf(sym, sizeof sym, ENTRY_PREFIX "%s", kernelName);
    dlerror();
    void *entry = dlsym(b->dl, sym);
    if (!entry)
        return dv_acl_fail(ACL_ERROR_KERNEL_NOT_FOUND,
                           "%s: %s has no kernel '%s' (no __global__ kernel of that name was compiled into it by dvcc)",
                           api, b->path, kernelName);
    func_t *f = calloc(1, sizeof *f);
    if (!f || dv_acl_handle_add(f, FUNC_MAGIC) != ACL_SUCCESS) {
        free(f);
        return dv_acl_fail(ACL_ERROR_BAD_ALLOC, "%s: out of memory", api);
    }
    f->bin = b;
    snprintf(f->name, sizeof f->name, "%s", kernelName);
    /* ISO C has no function-pointer cast from void *; POSIX guarantees the representation */
    memcpy(&f->entry, &entry, sizeof f->entry);
    f->next = b->funcs;
    b->funcs = f;
    *funcHandle = f;
    return ACL_SUCCESS;
}

aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle)
{
    DV_ACL_LOCKED();
    bin_t *b = NULL;
    int rc = bin_get(binHandle, "aclrtBinaryUnLoad", &b);
    if (rc != ACL_SUCCESS)
        return rc;
    /* kernels queued from the library still run its code: the device finishes them first */
    dv_acl_drain();
    if (!dv_acl_handle_is(binHandle, BIN_MAGIC)) /* a host callback of that work unloaded it */
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclrtBinaryUnLoad: binHandle %p was unloaded by a host callback while the queued work ran",
                           binHandle);
    bin_free(b);
    return ACL_SUCCESS;
}

/* ---------------------------------------------------------------- argument lists */

aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle *argsHandle)
{
    DV_ACL_LOCKED();
    func_t *f = NULL;
    int rc = func_get(funcHandle, "aclrtKernelArgsInit", &f);
    if (rc != ACL_SUCCESS)
        return rc;
    if (!argsHandle)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtKernelArgsInit: argsHandle is NULL");
    args_t *a = calloc(1, sizeof *a);
    if (!a || dv_acl_handle_add(a, ARGS_MAGIC) != ACL_SUCCESS) {
        free(a);
        return dv_acl_fail(ACL_ERROR_BAD_ALLOC, "aclrtKernelArgsInit: out of memory");
    }
    a->func = f;
    a->next = f->bin->args;
    f->bin->args = a;
    *argsHandle = a;
    return ACL_SUCCESS;
}

/* Add a parameter of `size` bytes at its natural alignment (the largest power of two that divides its
 * size, at most 8: where a C struct of the kernel's parameters puts it). */
static int args_append(args_t *a, const char *api, const void *value, size_t size, bool placeholder,
                       aclrtParamHandle *paramHandle)
{
    if (a->finalized)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: the argument list of kernel '%s' is finalized already", api,
                           a->func->name);
    size_t align = 1;
    while (align < 8 && size % (align * 2) == 0)
        align *= 2;
    size_t offset = (a->size + align - 1) / align * align;
    if (offset + size > a->cap) {
        size_t cap = (offset + size) * 2;
        uint8_t *d = realloc(a->data, cap);
        if (!d)
            return dv_acl_fail(ACL_ERROR_BAD_ALLOC, "%s: out of memory", api);
        a->data = d;
        a->cap = cap;
    }
    param_t *p = calloc(1, sizeof *p);
    param_t **list = realloc(a->param, (a->nparam + 1) * sizeof *list);
    if (list)
        a->param = list;
    if (!p || !list || dv_acl_handle_add(p, PARAM_MAGIC) != ACL_SUCCESS) {
        free(p);
        return dv_acl_fail(ACL_ERROR_BAD_ALLOC, "%s: out of memory", api);
    }
    memset(a->data + a->size, 0, offset - a->size);
    if (value)
        memcpy(a->data + offset, value, size);
    else
        memset(a->data + offset, 0, size);
    *p = (param_t){.args = a, .offset = offset, .size = size, .placeholder = placeholder};
    a->param[a->nparam++] = p;
    a->size = offset + size;
    if (paramHandle)
        *paramHandle = p;
    return ACL_SUCCESS;
}

aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void *param, size_t paramSize,
                               aclrtParamHandle *paramHandle)
{
    DV_ACL_LOCKED();
    const char *api = "aclrtKernelArgsAppend";
    args_t *a = NULL;
    int rc = args_get(argsHandle, api, &a);
    if (rc != ACL_SUCCESS)
        return rc;
    if (!param || paramSize == 0)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: parameter %zu of kernel '%s': param is NULL or paramSize is 0",
                           api, a->nparam, a->func->name);
    return args_append(a, api, param, paramSize, false, paramHandle);
}

aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle, aclrtParamHandle *paramHandle)
{
    DV_ACL_LOCKED();
    const char *api = "aclrtKernelArgsAppendPlaceHolder";
    args_t *a = NULL;
    int rc = args_get(argsHandle, api, &a);
    if (rc != ACL_SUCCESS)
        return rc;
    if (!paramHandle)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: paramHandle is NULL (its buffer is set through it)", api);
    return args_append(a, api, NULL, sizeof(uint64_t), true, paramHandle);
}

aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle, size_t dataSize,
                                             void **bufferAddr)
{
    DV_ACL_LOCKED();
    const char *api = "aclrtKernelArgsGetPlaceHolderBuffer";
    args_t *a = NULL;
    int rc = args_get(argsHandle, api, &a);
    if (rc != ACL_SUCCESS)
        return rc;
    param_t *p = paramHandle;
    if (!p || !dv_acl_handle_is(p, PARAM_MAGIC) || p->args != a || !p->placeholder)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "%s: paramHandle %p is not a placeholder (aclrtKernelArgsAppendPlaceHolder) of this list",
                           api, paramHandle);
    if (!bufferAddr || dataSize == 0)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: bufferAddr is NULL or dataSize is 0", api);
    void *buf = calloc(1, dataSize);
    if (!buf)
        return dv_acl_fail(ACL_ERROR_BAD_ALLOC, "%s: out of memory for %zu bytes", api, dataSize);
    free(p->buffer);
    p->buffer = buf;
    p->buffer_size = dataSize;
    *bufferAddr = buf;
    return ACL_SUCCESS;
}

aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle)
{
    DV_ACL_LOCKED();
    args_t *a = NULL;
    int rc = args_get(argsHandle, "aclrtKernelArgsFinalize", &a);
    if (rc != ACL_SUCCESS)
        return rc;
    a->finalized = true;
    return ACL_SUCCESS;
}

/* ---------------------------------------------------------------- launches */

/* The launch attributes: those that change nothing on the model are accepted (scheduling mode,
 * prefetch, dump, timeouts; the engine type and SIMT local memory, which CANN ignores on Atlas A2);
 * a block offset would change GetBlockIdx and is refused. */
static int check_cfg(const aclrtLaunchKernelCfg *cfg, const char *api, const char *kernel)
{
    if (!cfg)
        return ACL_SUCCESS;
    if (cfg->numAttrs && !cfg->attrs)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: %s: cfg->numAttrs is %zu but cfg->attrs is NULL", api, kernel,
                           cfg->numAttrs);
    for (size_t i = 0; i < cfg->numAttrs; i++) {
        const aclrtLaunchKernelAttr *at = &cfg->attrs[i];
        switch (at->id) {
        case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
            if (at->value.schemMode > 1)
                return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: %s: attribute %zu: schemMode %u is not 0 or 1", api,
                                   kernel, i, at->value.schemMode);
            break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE:
            if (at->value.engineType != ACL_RT_ENGINE_TYPE_AIC && at->value.engineType != ACL_RT_ENGINE_TYPE_AIV)
                return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: %s: attribute %zu: unknown engineType %d", api,
                                   kernel, i, (int)at->value.engineType);
            break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_NUMBLOCKS_OFFSET:
            if (at->value.numBlocksOffset != 0)
                return dv_acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                   "%s: %s: attribute %zu: numBlocksOffset %u: block offsets are not modelled", api,
                                   kernel, i, at->value.numBlocksOffset);
            break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_LOCAL_MEMORY_SIZE:
        case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
        case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
        case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
        case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
            break;
        default:
            return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: %s: attribute %zu: unknown attribute id %d", api, kernel,
                               i, (int)at->id);
        }
    }
    return ACL_SUCCESS;
}

/* Call the kernel's entry; its status is the launch's. */
static int launch(const char *api, func_t *f, uint32_t numBlocks, const void *argsData, size_t argsSize,
                  aclrtStream stream)
{
    int rc = dv_acl_check_device(api);
    if (rc != ACL_SUCCESS)
        return rc;
    if (argsSize && !argsData)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: %s: argsData is NULL with argsSize %zu", api, f->name,
                           argsSize);
    return (int)f->entry(numBlocks, stream, argsData, argsSize);
}

aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData, size_t argsSize,
                           aclrtStream stream)
{
    DV_ACL_LOCKED();
    func_t *f = NULL;
    int rc = func_get(funcHandle, "aclrtLaunchKernel", &f);
    return rc != ACL_SUCCESS ? rc : launch("aclrtLaunchKernel", f, numBlocks, argsData, argsSize, stream);
}

aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData, size_t argsSize,
                             aclrtLaunchKernelCfg *cfg, aclrtStream stream)
{
    DV_ACL_LOCKED();
    const char *api = "aclrtLaunchKernelV2";
    func_t *f = NULL;
    int rc = func_get(funcHandle, api, &f);
    if (rc == ACL_SUCCESS)
        rc = check_cfg(cfg, api, f->name);
    return rc != ACL_SUCCESS ? rc : launch(api, f, numBlocks, argsData, argsSize, stream);
}

/* Placeholder device buffers live until the kernel that reads them has run: a host callback queued
 * after it frees them. */
typedef struct {
    size_t n;
    void *dev[];
} dev_list_t;

static void free_dev_list(void *user)
{
    dev_list_t *l = user;
    for (size_t i = 0; i < l->n; i++)
        aclrtFree(l->dev[i]);
    free(l);
}

aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                     aclrtLaunchKernelCfg *cfg, aclrtArgsHandle argsHandle, void *reserve)
{
    DV_ACL_LOCKED();
    const char *api = "aclrtLaunchKernelWithConfig";
    func_t *f = NULL;
    args_t *a = NULL;
    (void)reserve;
    int rc = func_get(funcHandle, api, &f);
    if (rc == ACL_SUCCESS)
        rc = args_get(argsHandle, api, &a);
    if (rc == ACL_SUCCESS)
        rc = check_cfg(cfg, api, f->name);
    if (rc == ACL_SUCCESS && (rc = dv_acl_check_device(api)) == ACL_SUCCESS) {
        if (a->func != f)
            rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argsHandle is the argument list of kernel '%s', not of '%s'",
                             api, a->func->name, f->name);
        else if (!a->finalized)
            rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM,
                             "%s: %s: the argument list is not finalized (aclrtKernelArgsFinalize)", api, f->name);
    }
    if (rc != ACL_SUCCESS)
        return rc;
    size_t nph = 0;
    for (size_t i = 0; i < a->nparam; i++)
        nph += a->param[i]->placeholder;
    uint8_t *blob = malloc(a->size ? a->size : 1);
    dev_list_t *devs = calloc(1, sizeof *devs + nph * sizeof devs->dev[0]);
    if (!blob || !devs) {
        free(blob);
        free(devs);
        return dv_acl_fail(ACL_ERROR_BAD_ALLOC, "%s: out of memory", api);
    }
    if (a->size)
        memcpy(blob, a->data, a->size);
    for (size_t i = 0; i < a->nparam && rc == ACL_SUCCESS; i++) {
        const param_t *p = a->param[i];
        if (!p->placeholder)
            continue;
        uint8_t *host;
        void *dev = NULL;
        if (!p->buffer)
            rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM,
                             "%s: %s: placeholder parameter %zu has no buffer (aclrtKernelArgsGetPlaceHolderBuffer)",
                             api, f->name, i);
        else if ((rc = aclrtMalloc(&dev, p->buffer_size, ACL_MEM_MALLOC_HUGE_FIRST)) == ACL_SUCCESS &&
                 (rc = dv_acl_mem_find((uint64_t)(uintptr_t)dev, api, &host, NULL)) == ACL_SUCCESS) {
            memcpy(host, p->buffer, p->buffer_size);
            uint64_t addr = (uint64_t)(uintptr_t)dev;
            memcpy(blob + p->offset, &addr, sizeof addr);
        }
        if (dev)
            devs->dev[devs->n++] = dev;
    }
    if (rc == ACL_SUCCESS)
        rc = (int)f->entry(numBlocks, stream, blob, a->size);
    free(blob);
    if (rc == ACL_SUCCESS && devs->n && (rc = aclrtLaunchCallback(free_dev_list, devs, ACL_CALLBACK_BLOCK, stream)) ==
                                            ACL_SUCCESS)
        return rc;
    if (devs->n) { /* nothing queued reads them: free them now, keeping the failure's message */
        char msg[1024];
        const char *m = aclGetRecentErrMsg();
        snprintf(msg, sizeof msg, "%s", m ? m : "");
        free_dev_list(devs);
        if (rc != ACL_SUCCESS)
            dv_acl_restore_msg(msg);
    } else {
        free(devs);
    }
    return rc;
}
