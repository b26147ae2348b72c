/* tests/check_acl_binary.c - kernel binaries loaded at run time (acl/binary.c): loading errors, the
 * function lookup, the argument list's layout and placeholders, launch attributes and the errors of
 * every call.  The binary is a small C library compiled here whose kernel entry
 * (dvsim_kernel_entry_probe, the symbol dvcc writes for a kernel) hands its arguments to a hook in this
 * test; tests/ascendc.sh runs real Ascend C kernels through the same calls. */
#define _DEFAULT_SOURCE
#include <check.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "support/aclt.h"

typedef uint32_t (*hook_fn)(uint32_t blocks, void *stream, const void *args, size_t size);

/* The library: two kernels, probe and other, whose entries call the hook set with probe_set_hook. */
static const char LIB_SRC[] =
    "#include <stddef.h>\n#include <stdint.h>\n"
    "typedef uint32_t (*hook_fn)(uint32_t, void *, const void *, size_t);\n"
    "static hook_fn hook;\n"
    "void probe_set_hook(hook_fn h) { hook = h; }\n"
    "uint32_t dvsim_kernel_entry_probe(uint32_t b, void *s, const void *a, size_t n) { return hook(b, s, a, n); }\n"
    "uint32_t dvsim_kernel_entry_other(uint32_t b, void *s, const void *a, size_t n) { return hook(b, s, a, n); }\n";

static char g_dir[64], g_lib[128];

static void write_text(const char *path, const char *text, size_t n)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(text, 1, n, f), n);
    fclose(f);
}

/* Build the library in a new temporary directory (g_lib). */
static void build_lib(void)
{
    char src[128], cmd[400];
    snprintf(g_dir, sizeof g_dir, "/tmp/dvsim_binary_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(g_dir));
    snprintf(src, sizeof src, "%s/probe.c", g_dir);
    snprintf(g_lib, sizeof g_lib, "%s/libprobe.so", g_dir);
    write_text(src, LIB_SRC, strlen(LIB_SRC));
    const char *cc = getenv("CC");
    snprintf(cmd, sizeof cmd, "%s -shared -fPIC -o '%s' '%s'", cc && *cc ? cc : "cc", g_lib, src);
    ck_assert_int_eq(system(cmd), 0);
}

static void remove_dir(void)
{
    char cmd[120];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* What the hook saw at the last launch, and what it answers. */
static struct {
    int calls;
    uint32_t blocks;
    void *stream;
    uint8_t args[256];
    size_t size;
    uint8_t placeholder[16]; /* the device bytes behind the blob's placeholder slot (offset ph_offset) */
    size_t ph_offset, ph_bytes;
    uint32_t answer;
} g_seen;

static uint32_t hook(uint32_t blocks, void *stream, const void *args, size_t size)
{
    g_seen.calls++;
    g_seen.blocks = blocks;
    g_seen.stream = stream;
    g_seen.size = size;
    memcpy(g_seen.args, args, size < sizeof g_seen.args ? size : sizeof g_seen.args);
    if (g_seen.ph_bytes) { /* the placeholder's device copy, read before anything queued after it runs */
        void *dev;
        memcpy(&dev, (const uint8_t *)args + g_seen.ph_offset, sizeof dev);
        ck_assert_int_eq(aclrtMemcpy(g_seen.placeholder, sizeof g_seen.placeholder, dev, g_seen.ph_bytes,
                                     ACL_MEMCPY_DEVICE_TO_HOST),
                         ACL_SUCCESS);
    }
    return g_seen.answer;
}

/* Point the library's entries at hook (dlopen of the same file gives the loaded library). */
static void set_hook(void)
{
    void *dl = dlopen(g_lib, RTLD_NOW | RTLD_NOLOAD);
    ck_assert_msg(dl != NULL, "%s is not loaded: %s", g_lib, dlerror());
    void *sym = dlsym(dl, "probe_set_hook");
    ck_assert_ptr_nonnull(sym);
    void (*set)(hook_fn);
    memcpy(&set, &sym, sizeof set);
    set(hook);
    dlclose(dl);
}

/* ---------------------------------------------------------------- loading */

START_TEST(test_acl_binary_load_errors)
{
    aclrtBinHandle bin = NULL;
    char path[160];
    build_lib();
    FAILS(aclrtBinaryLoadFromFile(g_lib, NULL, &bin), ACL_ERROR_UNINITIALIZE, "aclrtBinaryLoadFromFile");
    up();
    FAILS(aclrtBinaryLoadFromFile(NULL, NULL, &bin), ACL_ERROR_INVALID_PARAM, "binPath or binHandle is NULL");
    FAILS(aclrtBinaryLoadFromFile("/nonexistent/k.so", NULL, &bin), ACL_ERROR_INVALID_FILE,
          "cannot open /nonexistent/k.so");
    snprintf(path, sizeof path, "%s/notelf.so", g_dir);
    write_text(path, "not a library\n", 14);
    FAILS(aclrtBinaryLoadFromFile(path, NULL, &bin), ACL_ERROR_INVALID_FILE, "notelf.so is not an ELF shared library");
    FAILS(aclrtBinaryLoadFromData("xyz\n", 4, NULL, &bin), ACL_ERROR_INVALID_FILE, "data is not an ELF shared library");
    /* an ELF file that is not a library: this test program */
    FAILS(aclrtBinaryLoadFromFile("/proc/self/exe", NULL, &bin), ACL_ERROR_INVALID_FILE,
          "/proc/self/exe: cannot load it as a kernel library");
    aclrtBinaryLoadOption opt = {.type = ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE};
    aclrtBinaryLoadOptions opts = {.options = &opt, .numOpt = 1};
    FAILS(aclrtBinaryLoadFromFile(g_lib, &opts, &bin), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "AI CPU kernels");
    opt = (aclrtBinaryLoadOption){.type = ACL_RT_BINARY_LOAD_OPT_MAGIC, .value.magic = 0x1234};
    FAILS(aclrtBinaryLoadFromFile(g_lib, &opts, &bin), ACL_ERROR_INVALID_PARAM, "unknown magic 0x1234");
    opts.options = NULL;
    FAILS(aclrtBinaryLoadFromFile(g_lib, &opts, &bin), ACL_ERROR_INVALID_PARAM, "options->options is NULL");
    /* the documented options load */
    opt = (aclrtBinaryLoadOption){.type = ACL_RT_BINARY_LOAD_OPT_MAGIC, .value.magic = ACL_RT_BINARY_MAGIC_ELF_AICORE};
    opts.options = &opt;
    OK(aclrtBinaryLoadFromFile(g_lib, &opts, &bin));
    OK(aclrtBinaryUnLoad(bin));
    FAILS(aclrtBinaryUnLoad(bin), ACL_ERROR_INVALID_PARAM, "is not a loaded kernel binary");
    /* from bytes in memory */
    FILE *f = fopen(g_lib, "rb");
    ck_assert_ptr_nonnull(f);
    static char bytes[1 << 20];
    size_t n = fread(bytes, 1, sizeof bytes, f);
    fclose(f);
    ck_assert_uint_gt(n, 4);
    OK(aclrtBinaryLoadFromData(bytes, n, NULL, &bin));
    aclrtFuncHandle fn = NULL;
    OK(aclrtBinaryGetFunction(bin, "probe", &fn));
    OK(aclrtBinaryUnLoad(bin));
    down();
    remove_dir();
}
END_TEST

START_TEST(test_acl_binary_get_function)
{
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle fn = NULL, again = NULL;
    build_lib();
    up();
    OK(aclrtBinaryLoadFromFile(g_lib, NULL, &bin));
    FAILS(aclrtBinaryGetFunction(bin, "add_custom", &fn), ACL_ERROR_KERNEL_NOT_FOUND, "has no kernel 'add_custom'");
    ck_assert_msg(strstr(aclGetRecentErrMsg(), g_lib), "the message names the library: %s", aclGetRecentErrMsg());
    FAILS(aclrtBinaryGetFunction(bin, NULL, &fn), ACL_ERROR_INVALID_PARAM, "kernelName or funcHandle is NULL");
    FAILS(aclrtBinaryGetFunction((aclrtBinHandle)&fn, "probe", &fn), ACL_ERROR_INVALID_PARAM,
          "is not a loaded kernel binary");
    OK(aclrtBinaryGetFunction(bin, "probe", &fn));
    OK(aclrtBinaryGetFunction(bin, "probe", &again));
    ck_assert_ptr_eq(fn, again);
    OK(aclrtBinaryUnLoad(bin));
    /* the functions go with their binary */
    aclrtArgsHandle args;
    FAILS(aclrtKernelArgsInit(fn, &args), ACL_ERROR_INVALID_PARAM, "is not a kernel function");
    FAILS(aclrtLaunchKernel(fn, 1, NULL, 0, NULL), ACL_ERROR_INVALID_PARAM, "is not a kernel function");
    down();
    remove_dir();
}
END_TEST

/* ---------------------------------------------------------------- arguments and launches */

/* Each parameter at its natural alignment: u8 at 0, u32 at 4, a pointer at 8, u16 at 16, a
 * placeholder at 24, a struct of three floats at 32; 44 bytes.  The placeholder's slot holds a device
 * address where the buffer's bytes were copied. */
START_TEST(test_acl_binary_args_layout)
{
    aclrtBinHandle bin;
    aclrtFuncHandle fn, other;
    aclrtArgsHandle args, args_other;
    aclrtParamHandle p[6], ph;
    aclrtStream stream;
    build_lib();
    up();
    OK(aclrtCreateStream(&stream));
    OK(aclrtBinaryLoadFromFile(g_lib, NULL, &bin));
    set_hook();
    OK(aclrtBinaryGetFunction(bin, "probe", &fn));
    OK(aclrtBinaryGetFunction(bin, "other", &other));
    FAILS(aclrtKernelArgsInit(fn, NULL), ACL_ERROR_INVALID_PARAM, "argsHandle is NULL");
    OK(aclrtKernelArgsInit(fn, &args));
    uint8_t u8 = 7;
    uint32_t u32 = 0xA1B2C3D4u;
    void *ptr = (void *)(uintptr_t)0x1240000000ull;
    uint16_t u16 = 0xBEEF;
    float f3[3] = {1.5f, -2.0f, 3.25f};
    FAILS(aclrtKernelArgsAppend(args, NULL, 4, &p[0]), ACL_ERROR_INVALID_PARAM, "param is NULL or paramSize is 0");
    FAILS(aclrtKernelArgsAppend(&u8, &u8, 1, &p[0]), ACL_ERROR_INVALID_PARAM, "is not an argument list");
    OK(aclrtKernelArgsAppend(args, &u8, 1, &p[0]));
    OK(aclrtKernelArgsAppend(args, &u32, 4, &p[1]));
    OK(aclrtKernelArgsAppend(args, &ptr, sizeof ptr, &p[2]));
    OK(aclrtKernelArgsAppend(args, &u16, 2, &p[3]));
    FAILS(aclrtKernelArgsAppendPlaceHolder(args, NULL), ACL_ERROR_INVALID_PARAM, "paramHandle is NULL");
    OK(aclrtKernelArgsAppendPlaceHolder(args, &ph));
    OK(aclrtKernelArgsAppend(args, f3, sizeof f3, &p[4]));
    void *buf = NULL;
    FAILS(aclrtKernelArgsGetPlaceHolderBuffer(args, p[1], 8, &buf), ACL_ERROR_INVALID_PARAM, "is not a placeholder");
    FAILS(aclrtLaunchKernelWithConfig(fn, 4, stream, NULL, args, NULL), ACL_ERROR_INVALID_PARAM,
          "probe: the argument list is not finalized");
    OK(aclrtKernelArgsFinalize(args));
    FAILS(aclrtKernelArgsAppend(args, &u8, 1, &p[5]), ACL_ERROR_INVALID_PARAM,
          "the argument list of kernel 'probe' is finalized already");
    FAILS(aclrtLaunchKernelWithConfig(fn, 4, stream, NULL, args, NULL), ACL_ERROR_INVALID_PARAM,
          "placeholder parameter 4 has no buffer");
    OK(aclrtKernelArgsGetPlaceHolderBuffer(args, ph, 8, &buf));
    memcpy(buf, "\x11\x22\x33\x44\x55\x66\x77\x88", 8);
    OK(aclrtKernelArgsInit(other, &args_other));
    OK(aclrtKernelArgsFinalize(args_other));
    FAILS(aclrtLaunchKernelWithConfig(fn, 4, stream, NULL, args_other, NULL), ACL_ERROR_INVALID_PARAM,
          "argsHandle is the argument list of kernel 'other', not of 'probe'");
    ck_assert_int_eq(g_seen.calls, 0);

    g_seen.ph_offset = 24;
    g_seen.ph_bytes = 8;
    OK(aclrtLaunchKernelWithConfig(fn, 4, stream, NULL, args, NULL));
    ck_assert_int_eq(g_seen.calls, 1);
    ck_assert_uint_eq(g_seen.blocks, 4);
    ck_assert_ptr_eq(g_seen.stream, stream);
    ck_assert_uint_eq(g_seen.size, 44);
    const uint8_t *a = g_seen.args;
    ck_assert_uint_eq(a[0], 7);
    ck_assert_int_eq(memcmp(a + 4, &u32, 4), 0);
    ck_assert_int_eq(memcmp(a + 8, &ptr, 8), 0);
    ck_assert_int_eq(memcmp(a + 16, &u16, 2), 0);
    ck_assert_int_eq(memcmp(a + 32, f3, 12), 0);
    ck_assert_int_eq(memcmp(g_seen.placeholder, "\x11\x22\x33\x44\x55\x66\x77\x88", 8), 0);
    /* the placeholder's device copy is freed once the stream has run past the kernel */
    void *dev;
    memcpy(&dev, a + 24, sizeof dev);
    OK(aclrtSynchronizeStream(stream));
    FAILS(aclrtFree(dev), ACL_ERROR_INVALID_PARAM, "is not a live device allocation");

    /* the entry's status is the launch's */
    g_seen.ph_bytes = 0;
    g_seen.answer = 107000;
    ck_assert_int_eq(aclrtLaunchKernelWithConfig(fn, 4, stream, NULL, args, NULL), 107000);
    ck_assert_int_eq(g_seen.calls, 2);
    g_seen.answer = 0;
    OK(aclrtSynchronizeStream(stream));
    OK(aclrtDestroyStream(stream));
    OK(aclrtBinaryUnLoad(bin));
    FAILS(aclrtKernelArgsFinalize(args), ACL_ERROR_INVALID_PARAM, "is not an argument list");
    down();
    remove_dir();
}
END_TEST

/* aclrtLaunchKernel and aclrtLaunchKernelV2 pass the caller's blob; the attributes that mean nothing on
 * the model are accepted, a block offset and unknown attributes are refused. */
START_TEST(test_acl_binary_launch_blob_and_cfg)
{
    aclrtBinHandle bin;
    aclrtFuncHandle fn;
    build_lib();
    up();
    OK(aclrtBinaryLoadFromFile(g_lib, NULL, &bin));
    set_hook();
    OK(aclrtBinaryGetFunction(bin, "probe", &fn));
    memset(&g_seen, 0, sizeof g_seen);
    const uint64_t blob[2] = {0x0102030405060708ull, 42};
    FAILS(aclrtLaunchKernel(fn, 2, NULL, 16, NULL), ACL_ERROR_INVALID_PARAM, "argsData is NULL with argsSize 16");
    OK(aclrtLaunchKernel(fn, 2, blob, sizeof blob, NULL));
    ck_assert_int_eq(g_seen.calls, 1);
    ck_assert_uint_eq(g_seen.size, 16);
    ck_assert_int_eq(memcmp(g_seen.args, blob, 16), 0);

    aclrtLaunchKernelAttr attr[3] = {
        {.id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, .value.timeout = 10},
        {.id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, .value.schemMode = 1},
        {.id = ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE, .value.engineType = ACL_RT_ENGINE_TYPE_AIV},
    };
    aclrtLaunchKernelCfg cfg = {.attrs = attr, .numAttrs = 3};
    OK(aclrtLaunchKernelV2(fn, 3, blob, sizeof blob, &cfg, NULL));
    ck_assert_int_eq(g_seen.calls, 2);
    ck_assert_uint_eq(g_seen.blocks, 3);
    attr[1] = (aclrtLaunchKernelAttr){.id = ACL_RT_LAUNCH_KERNEL_ATTR_NUMBLOCKS_OFFSET, .value.numBlocksOffset = 2};
    FAILS(aclrtLaunchKernelV2(fn, 3, blob, sizeof blob, &cfg, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
          "probe: attribute 1: numBlocksOffset 2: block offsets are not modelled");
    attr[1] = (aclrtLaunchKernelAttr){.id = (aclrtLaunchKernelAttrId)99};
    FAILS(aclrtLaunchKernelV2(fn, 3, blob, sizeof blob, &cfg, NULL), ACL_ERROR_INVALID_PARAM,
          "attribute 1: unknown attribute id 99");
    cfg.attrs = NULL;
    FAILS(aclrtLaunchKernelV2(fn, 3, blob, sizeof blob, &cfg, NULL), ACL_ERROR_INVALID_PARAM, "cfg->attrs is NULL");
    ck_assert_int_eq(g_seen.calls, 2);
    OK(aclrtBinaryUnLoad(bin));
    down();
    remove_dir();
}
END_TEST

Suite *dv_acl_binary_suite(void)
{
    Suite *s = suite_create("acl_binary");
    TCase *t = tcase_create("binary");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, test_acl_binary_load_errors);
    tcase_add_test(t, test_acl_binary_get_function);
    tcase_add_test(t, test_acl_binary_args_layout);
    tcase_add_test(t, test_acl_binary_launch_blob_and_cfg);
    suite_add_tcase(s, t);
    return s;
}
