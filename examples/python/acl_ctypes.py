#!/usr/bin/env python3
"""examples/python/acl_ctypes.py - drive dvsim's AscendCL libraries from Python with ctypes and numpy.

Loads libascendcl.so, libnnopbase.so and libopapi.so, makes a numpy -> device -> numpy round trip with
aclrtMemcpy, then runs aclnnAdd (out = self + alpha * other) on float32 arrays and compares the result
exactly with numpy's float32 arithmetic.

    DVSIM_PREFIX=$PREFIX python3 examples/python/acl_ctypes.py

DVSIM_PREFIX names the install prefix (the libraries are in $DVSIM_PREFIX/lib) or the library
directory itself; without it the dynamic loader's search path is used (LD_LIBRARY_PATH).
Exits 0 when every check holds, 1 otherwise.
"""
import ctypes
import os
import sys

import numpy as np

# Values of the AscendCL enums this script uses (acl/acl_rt.h, acl/acl_base.h).
ACL_SUCCESS = 0
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_FLOAT = 0
ACL_FORMAT_ND = 2

c_int64_p = ctypes.POINTER(ctypes.c_int64)


class AclFailure(Exception):
    """An ACL call returned an error."""


def library_dir():
    """The directory to load the libraries from, or None for the loader's search path."""
    prefix = os.environ.get("DVSIM_PREFIX")
    if not prefix:
        return None
    for d in (os.path.join(prefix, "lib"), prefix):
        if os.path.exists(os.path.join(d, "libascendcl.so")):
            return d
    sys.exit("acl_ctypes: no libascendcl.so in %s/lib or %s" % (prefix, prefix))


def load(name, where):
    """Load a shared library globally so the next ones can use its symbols."""
    path = os.path.join(where, name) if where else name
    return ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)


def bind(lib, name, restype, argtypes):
    """Declare one C function of lib."""
    fn = getattr(lib, name)
    fn.restype = restype
    fn.argtypes = argtypes
    return fn


class Acl:
    """The AscendCL and aclnn functions the script calls, with their C signatures."""

    def __init__(self):
        where = library_dir()
        acl = load("libascendcl.so", where)
        nnopbase = load("libnnopbase.so", where)
        opapi = load("libopapi.so", where)
        i, p, sz = ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t
        self.aclInit = bind(acl, "aclInit", i, [ctypes.c_char_p])
        self.aclFinalize = bind(acl, "aclFinalize", i, [])
        self.aclGetRecentErrMsg = bind(acl, "aclGetRecentErrMsg", ctypes.c_char_p, [])
        self.aclrtSetDevice = bind(acl, "aclrtSetDevice", i, [ctypes.c_int32])
        self.aclrtResetDevice = bind(acl, "aclrtResetDevice", i, [ctypes.c_int32])
        self.aclrtCreateStream = bind(acl, "aclrtCreateStream", i, [ctypes.POINTER(p)])
        self.aclrtDestroyStream = bind(acl, "aclrtDestroyStream", i, [p])
        self.aclrtSynchronizeStream = bind(acl, "aclrtSynchronizeStream", i, [p])
        self.aclrtMalloc = bind(acl, "aclrtMalloc", i, [ctypes.POINTER(p), sz, i])
        self.aclrtFree = bind(acl, "aclrtFree", i, [p])
        self.aclrtMemcpy = bind(acl, "aclrtMemcpy", i, [p, sz, p, sz, i])
        # aclnn objects (libnnopbase); argument types as ctypes users bind them
        self.aclCreateTensor = bind(nnopbase, "aclCreateTensor", p,
                                    [c_int64_p, ctypes.c_uint64, ctypes.c_int32, c_int64_p, ctypes.c_int64,
                                     ctypes.c_int32, c_int64_p, ctypes.c_uint64, p])
        self.aclCreateScalar = bind(nnopbase, "aclCreateScalar", p, [p, ctypes.c_int32])
        self.aclDestroyTensor = bind(nnopbase, "aclDestroyTensor", ctypes.c_int32, [p])
        self.aclDestroyScalar = bind(nnopbase, "aclDestroyScalar", ctypes.c_int32, [p])
        # the operator (libopapi)
        self.aclnnAddGetWorkspaceSize = bind(opapi, "aclnnAddGetWorkspaceSize", ctypes.c_int32,
                                             [p, p, p, p, ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(p)])
        self.aclnnAdd = bind(opapi, "aclnnAdd", ctypes.c_int32, [p, ctypes.c_uint64, p, p])

    def check(self, ret, what):
        """Raise AclFailure with the runtime's message unless ret is ACL_SUCCESS."""
        if ret != ACL_SUCCESS:
            msg = self.aclGetRecentErrMsg()
            raise AclFailure("%s returned %d: %s" % (what, ret, msg.decode() if msg else "(no message)"))


def int64_array(values):
    """A C int64_t array holding values."""
    return (ctypes.c_int64 * len(values))(*values)


def create_tensor(acl, shape, dev):
    """A contiguous float32 ND tensor of the given shape over device address dev."""
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    dims = int64_array(shape)
    tensor = acl.aclCreateTensor(dims, len(shape), ACL_FLOAT, int64_array(strides), 0, ACL_FORMAT_ND,
                                 dims, len(shape), dev)
    if not tensor:
        acl.check(-1, "aclCreateTensor")
    return tensor


def run(acl, held):
    """The checks; every resource made goes into held for the caller to release.  Returns failures."""
    failures = 0
    acl.check(acl.aclInit(None), "aclInit")
    held["init"] = True
    acl.check(acl.aclrtSetDevice(0), "aclrtSetDevice")
    held["device"] = True
    stream = ctypes.c_void_p()
    acl.check(acl.aclrtCreateStream(ctypes.byref(stream)), "aclrtCreateStream")
    stream = stream.value
    held["stream"] = stream

    # 1. numpy -> device -> numpy
    shape = (4, 2048)
    x = (np.arange(np.prod(shape), dtype=np.float32).reshape(shape) * np.float32(0.37)) - np.float32(11.0)
    y = (np.arange(np.prod(shape), dtype=np.float32).reshape(shape) % 113) * np.float32(0.21) - np.float32(7.5)
    nbytes = x.nbytes
    devs = []
    for _ in range(3):
        dev = ctypes.c_void_p()
        acl.check(acl.aclrtMalloc(ctypes.byref(dev), nbytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc")
        held["dev"].append(dev.value)
        devs.append(dev.value)
    dev_x, dev_y, dev_out = devs
    acl.check(acl.aclrtMemcpy(dev_x, nbytes, x.ctypes.data, nbytes, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy H2D")
    acl.check(acl.aclrtMemcpy(dev_y, nbytes, y.ctypes.data, nbytes, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy H2D")
    back = np.zeros_like(x)
    acl.check(acl.aclrtMemcpy(back.ctypes.data, nbytes, dev_x, nbytes, ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy D2H")
    if np.array_equal(back, x):
        print("round trip of %d bytes: ok" % nbytes)
    else:
        print("FAIL round trip: %d elements differ" % int(np.count_nonzero(back != x)))
        failures += 1

    # 2. aclnnAdd: out = x + alpha * y, in two phases
    alpha = ctypes.c_float(1.2)
    for dev in devs:
        held["tensors"].append(create_tensor(acl, shape, dev))
    t_x, t_y, t_out = held["tensors"]
    scalar = acl.aclCreateScalar(ctypes.cast(ctypes.byref(alpha), ctypes.c_void_p), ACL_FLOAT)
    if not scalar:
        acl.check(-1, "aclCreateScalar")
    held["scalar"] = scalar
    workspace_size = ctypes.c_uint64(0)
    executor = ctypes.c_void_p()
    acl.check(acl.aclnnAddGetWorkspaceSize(t_x, t_y, scalar, t_out, ctypes.byref(workspace_size),
                                           ctypes.byref(executor)), "aclnnAddGetWorkspaceSize")
    workspace = None
    if workspace_size.value > 0:
        ws = ctypes.c_void_p()
        acl.check(acl.aclrtMalloc(ctypes.byref(ws), workspace_size.value, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc")
        held["dev"].append(ws.value)
        workspace = ws.value
    acl.check(acl.aclnnAdd(workspace, workspace_size.value, executor, stream), "aclnnAdd")
    acl.check(acl.aclrtSynchronizeStream(stream), "aclrtSynchronizeStream")
    out = np.zeros_like(x)
    acl.check(acl.aclrtMemcpy(out.ctypes.data, nbytes, dev_out, nbytes, ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy D2H")
    want = x + np.float32(alpha.value) * y   # float32 throughout: the product is rounded, then the sum
    bad = int(np.count_nonzero(out != want))
    print("aclnnAdd %s float32, alpha %.1f: %d of %d elements differ from numpy" % (shape, alpha.value, bad, out.size))
    if bad:
        i = np.flatnonzero(out != want)[:5]
        print("  first differences: got %s, want %s" % (out.flat[i], want.flat[i]))
        failures += 1
    return failures


def release(acl, held):
    """Release whatever run() made, in reverse order.  Returns the number of failed releases."""
    failures = 0
    calls = [(acl.aclDestroyTensor, t, "aclDestroyTensor") for t in held["tensors"]]
    if held["scalar"]:
        calls.append((acl.aclDestroyScalar, held["scalar"], "aclDestroyScalar"))
    calls += [(acl.aclrtFree, d, "aclrtFree") for d in held["dev"]]
    if held["stream"]:
        calls.append((acl.aclrtDestroyStream, held["stream"], "aclrtDestroyStream"))
    if held["device"]:
        calls.append((acl.aclrtResetDevice, 0, "aclrtResetDevice"))
    for fn, arg, what in calls:
        try:
            acl.check(fn(arg), what)
        except AclFailure as e:
            print("FAIL %s" % e)
            failures += 1
    if held["init"]:
        try:
            acl.check(acl.aclFinalize(), "aclFinalize")
        except AclFailure as e:
            print("FAIL %s" % e)
            failures += 1
    return failures


def main():
    acl = Acl()
    held = {"init": False, "device": False, "stream": None, "dev": [], "tensors": [], "scalar": None}
    try:
        failures = run(acl, held)
    except AclFailure as e:
        print("FAIL %s" % e)
        failures = 1
    failures += release(acl, held)
    print("python ctypes example: %s" % ("PASS" if failures == 0 else "FAIL"))
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
