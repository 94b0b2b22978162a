"""_lib.py — libwavecc through ctypes.

Finds the shared library (libwavecc.so.0), declares the functions of
include/wavecc.h that the package uses, and wraps them in three small
classes: Kernel (a parsed kernel graph), Compiled (its code object, assembly,
launch descriptor and statistics) and the buffers of a run. Every call that
can fail raises WaveccError with the library's diagnostics.

Where the library is looked for, first found wins:
  1. $WAVECC_LIBRARY (a path to the .so);
  2. the library directory `make install` wrote into _config.py;
  3. the source tree: ../../build/ (and $WAVECC_BUILD) relative to this file;
  4. the loader's search path (ctypes.util.find_library("wavecc")).
"""
import ctypes
import ctypes.util
import os

WAVECC_BACKEND_EMULATOR = 0
WAVECC_BACKEND_HIP = 1

SONAME = "libwavecc.so.0"


class WaveccError(Exception):
    """An error from libwavecc or from tracing a kernel."""


class _ArgInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("dtype", ctypes.c_char_p),
        ("element_size", ctypes.c_size_t),
        ("rank", ctypes.c_int),
        ("shape", ctypes.c_int64 * 8),
        ("bytes", ctypes.c_uint64),
        ("reads", ctypes.c_int),
        ("writes", ctypes.c_int),
    ]


class _Options(ctypes.Structure):
    _fields_ = [
        ("target", ctypes.c_char_p),
        ("llvm_mc", ctypes.c_char_p),
        ("code_object_name", ctypes.c_char_p),
    ]


class _Buffer(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("data", ctypes.c_void_p), ("bytes", ctypes.c_size_t)]


def _candidates():
    env = os.environ.get("WAVECC_LIBRARY")
    if env:
        yield env
    try:
        from . import _config  # written by `make install`
        yield os.path.join(_config.LIBDIR, SONAME)
    except ImportError:
        pass
    here = os.path.dirname(os.path.abspath(__file__))
    build = os.environ.get("WAVECC_BUILD")
    if build:
        yield os.path.join(build, SONAME)
    yield os.path.join(here, "..", "..", "build", SONAME)
    found = ctypes.util.find_library("wavecc")
    if found:
        yield found
    yield SONAME


_lib = None


def lib():
    """The loaded library (loaded on first use)."""
    global _lib
    if _lib is not None:
        return _lib
    tried = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append(path)
            continue
        try:
            handle = ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
            continue
        _declare(handle)
        _lib = handle
        return _lib
    raise WaveccError("libwavecc not found; tried: " + "; ".join(tried) +
                      " (set WAVECC_LIBRARY to the path of " + SONAME + ")")


def _declare(h):
    P = ctypes.c_void_p
    sigs = {
        "wavecc_version": (ctypes.c_char_p, []),
        "wavecc_kernel_parse": (P, [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.POINTER(P)]),
        "wavecc_kernel_free": (None, [P]),
        "wavecc_kernel_name": (ctypes.c_char_p, [P]),
        "wavecc_kernel_set_symbol": (ctypes.c_int, [P, ctypes.c_char_p, ctypes.c_int64, ctypes.POINTER(P)]),
        "wavecc_kernel_num_args": (ctypes.c_size_t, [P]),
        "wavecc_kernel_arg": (ctypes.c_int, [P, ctypes.c_size_t, ctypes.POINTER(_ArgInfo), ctypes.POINTER(P)]),
        "wavecc_compile": (P, [P, ctypes.POINTER(_Options), ctypes.POINTER(P)]),
        "wavecc_compiled_free": (None, [P]),
        "wavecc_compiled_assembly": (P, [P, ctypes.POINTER(ctypes.c_size_t)]),
        "wavecc_compiled_code_object": (P, [P, ctypes.POINTER(ctypes.c_size_t)]),
        "wavecc_compiled_launch": (P, [P, ctypes.POINTER(ctypes.c_size_t)]),
        "wavecc_compiled_stats": (ctypes.c_char_p, [P]),
        "wavecc_run": (ctypes.c_int, [P, ctypes.c_int, ctypes.POINTER(_Buffer), ctypes.c_size_t, ctypes.POINTER(P)]),
        "wavecc_interpret": (ctypes.c_int, [P, ctypes.POINTER(_Buffer), ctypes.c_size_t, ctypes.POINTER(P)]),
        "wavecc_fill_random": (ctypes.c_int, [P, ctypes.c_size_t, ctypes.c_uint64, P, ctypes.c_size_t,
                                              ctypes.POINTER(P)]),
    }
    for name, (res, args) in sigs.items():
        f = getattr(h, name)
        f.restype = res
        f.argtypes = args
    libc = ctypes.CDLL(None)
    h._free = libc.free
    h._free.argtypes = [P]
    h._free.restype = None


def _take_error(p):
    """The message text at *error (freed here), or ''."""
    if not p.value:
        return ""
    text = ctypes.string_at(p.value).decode("utf-8", "replace")
    lib()._free(p)
    return text


def version():
    return lib().wavecc_version().decode()


def _bytes_of(getter, handle):
    n = ctypes.c_size_t(0)
    p = getter(handle, ctypes.byref(n))
    if not p:
        return b""
    return ctypes.string_at(p, n.value)


class ArgInfo:
    """One kernel argument as the library describes it under the bound symbols."""

    def __init__(self, info):
        self.name = info.name.decode()
        self.dtype = info.dtype.decode()
        self.element_size = info.element_size
        self.shape = tuple(info.shape[i] for i in range(info.rank))
        self.bytes = info.bytes
        self.reads = bool(info.reads)
        self.writes = bool(info.writes)

    def __repr__(self):
        return "ArgInfo(%s: %s%s, %d bytes)" % (self.name, self.dtype, list(self.shape), self.bytes)


class Kernel:
    """A kernel graph parsed by libwavecc (wavecc_kernel)."""

    def __init__(self, json_text, name="<memory>", on_error=None):
        data = json_text.encode() if isinstance(json_text, str) else json_text
        self._on_error = on_error or (lambda m: m)
        err = ctypes.c_void_p()
        self._h = lib().wavecc_kernel_parse(data, len(data), name.encode(), ctypes.byref(err))
        if not self._h:
            raise WaveccError(self._on_error(_take_error(err)))

    def __del__(self):
        h = getattr(self, "_h", None)
        if h and _lib is not None:
            _lib.wavecc_kernel_free(h)
            self._h = None

    @property
    def name(self):
        return lib().wavecc_kernel_name(self._h).decode()

    def set_symbol(self, name, value):
        err = ctypes.c_void_p()
        if lib().wavecc_kernel_set_symbol(self._h, name.encode(), int(value), ctypes.byref(err)) != 0:
            raise WaveccError(self._on_error(_take_error(err)))

    def args(self):
        out = []
        for i in range(lib().wavecc_kernel_num_args(self._h)):
            info = _ArgInfo()
            err = ctypes.c_void_p()
            if lib().wavecc_kernel_arg(self._h, i, ctypes.byref(info), ctypes.byref(err)) != 0:
                raise WaveccError(self._on_error(_take_error(err)))
            out.append(ArgInfo(info))
        return out

    def compile(self, target=None, llvm_mc=None):
        o = _Options(target.encode() if target else None, llvm_mc.encode() if llvm_mc else None, None)
        err = ctypes.c_void_p()
        h = lib().wavecc_compile(self._h, ctypes.byref(o), ctypes.byref(err))
        if not h:
            raise WaveccError(self._on_error(_take_error(err)))
        return Compiled(h, self._on_error)

    def interpret(self, buffers):
        """Run the reference interpreter on {name: writable buffer}."""
        bufs, keep = _buffers(buffers)
        err = ctypes.c_void_p()
        if lib().wavecc_interpret(self._h, bufs, len(keep), ctypes.byref(err)) != 0:
            raise WaveccError(self._on_error(_take_error(err)))

    def fill_random(self, i, seed, buf):
        """Fill a writable buffer with the seeded generator of `wavecc run` for argument i."""
        addr, size = _address(buf)
        err = ctypes.c_void_p()
        if lib().wavecc_fill_random(self._h, i, seed, addr, size, ctypes.byref(err)) != 0:
            raise WaveccError(self._on_error(_take_error(err)))


class Compiled:
    """A compiled kernel (wavecc_compiled): code object, assembly, launch descriptor, statistics."""

    def __init__(self, h, on_error):
        self._h = h
        self._on_error = on_error
        L = lib()
        self.assembly = _bytes_of(L.wavecc_compiled_assembly, h).decode()
        self.code_object = _bytes_of(L.wavecc_compiled_code_object, h)
        self.launch = _bytes_of(L.wavecc_compiled_launch, h).decode()
        s = L.wavecc_compiled_stats(h)
        self.stats = s.decode() if s else ""

    def __del__(self):
        h = getattr(self, "_h", None)
        if h and _lib is not None:
            _lib.wavecc_compiled_free(h)
            self._h = None

    def run(self, buffers, backend=WAVECC_BACKEND_EMULATOR):
        """Run on {name: writable buffer}; the kernel writes into them."""
        bufs, keep = _buffers(buffers)
        err = ctypes.c_void_p()
        if lib().wavecc_run(self._h, backend, bufs, len(keep), ctypes.byref(err)) != 0:
            raise WaveccError(self._on_error(_take_error(err)))


def _address(buf):
    """(address, size) of a writable C-contiguous buffer (a numpy array or a bytearray)."""
    if hasattr(buf, "ctypes") and hasattr(buf, "nbytes"):
        return buf.ctypes.data, buf.nbytes
    c = (ctypes.c_char * len(buf)).from_buffer(buf)
    return ctypes.addressof(c), len(buf)


def _buffers(buffers):
    items = list(buffers.items())
    arr = (_Buffer * max(1, len(items)))()
    keep = []
    for i, (name, buf) in enumerate(items):
        n = name.encode()
        addr, size = _address(buf)
        keep.append((n, buf))
        arr[i] = _Buffer(n, addr, size)
    return arr, keep
