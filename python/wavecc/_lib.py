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
WAVECC_ERUN = 3

SONAME = "libwavecc.so.0"


class WaveccError(Exception):
    """An error from libwavecc or from tracing a kernel.

    .diagnostics: the library's diagnostics of the failed call (a list of
    Diagnostic; empty for errors found while tracing)."""

    def __init__(self, msg, diagnostics=None):
        Exception.__init__(self, msg)
        self.diagnostics = list(diagnostics or [])


class NoDeviceError(WaveccError):
    """A HIP run found no AMD GPU (or no HIP runtime)."""


class _Diag(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_size_t),
        ("severity", ctypes.c_int),
        ("message", ctypes.c_char_p),
        ("file", ctypes.c_char_p),
        ("line", ctypes.c_int),
        ("col", ctypes.c_int),
        ("json_path", ctypes.c_char_p),
        ("op", ctypes.c_char_p),
        ("source_file", ctypes.c_char_p),
        ("source_line", ctypes.c_int),
        ("source_col", ctypes.c_int),
        ("hint", ctypes.c_char_p),
        ("text", ctypes.c_char_p),
    ]


class _ParamInfo(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_size_t),
        ("name", ctypes.c_char_p),
        ("kind", ctypes.c_int),
        ("dtype", ctypes.c_char_p),
        ("element_size", ctypes.c_size_t),
        ("kernarg_offset", ctypes.c_uint32),
        ("kernarg_bytes", ctypes.c_uint32),
        ("rank", ctypes.c_int),
        ("shape", ctypes.c_int64 * 8),
        ("dims", ctypes.c_char_p * 8),
        ("bytes", ctypes.c_uint64),
        ("reads", ctypes.c_int),
        ("writes", ctypes.c_int),
    ]


PARAM_KINDS = ("buffer", "scalar", "size")


class ParamInfo:
    """One kernel parameter in kernarg order (wavecc_param_info): buffers, runtime sizes, scalars."""

    def __init__(self, p):
        self.name = p.name.decode()
        self.kind = PARAM_KINDS[p.kind] if 0 <= p.kind < len(PARAM_KINDS) else str(p.kind)
        self.dtype = p.dtype.decode()
        self.element_size = p.element_size
        self.kernarg_offset, self.kernarg_bytes = p.kernarg_offset, p.kernarg_bytes
        self.shape = tuple(p.shape[i] for i in range(p.rank))
        self.dims = tuple(p.dims[i].decode() for i in range(p.rank))
        self.bytes = p.bytes
        self.reads, self.writes = bool(p.reads), bool(p.writes)

    def __repr__(self):
        return "ParamInfo(%s %s: %s%s at kernarg %d, %d bytes)" % (self.kind, self.name, self.dtype,
                                                                   list(self.dims), self.kernarg_offset,
                                                                   self.kernarg_bytes)


def _params(num, get, h, on_error):
    out = []
    for i in range(num(h)):
        info = _ParamInfo()
        info.struct_size = ctypes.sizeof(_ParamInfo)
        err = ctypes.c_void_p()
        if get(h, i, ctypes.byref(info), ctypes.byref(err)) != 0:
            raise _error(on_error, err)
        out.append(ParamInfo(info))
    return out


class _Define(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("value", ctypes.c_int64)]


class _CompileOptions(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_size_t),
        ("target", ctypes.c_char_p),
        ("llvm_mc", ctypes.c_char_p),
        ("code_object_name", ctypes.c_char_p),
        ("defines", ctypes.c_void_p),
        ("ndefines", ctypes.c_size_t),
        ("schedule", ctypes.c_char_p),
        ("lds_stages", ctypes.c_int),
        ("waves_per_eu", ctypes.c_int),
        ("interleave", ctypes.c_char_p),
        ("no_schedule", ctypes.c_int),
        ("denorm_fp_math_f32", ctypes.c_char_p),
        ("assembly_only", ctypes.c_int),
        ("dump_mir", ctypes.c_int),
        ("dump_plan", ctypes.c_int),
        ("cache_dir", ctypes.c_char_p),
    ]


class _LaunchInfo(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_size_t),
        ("grid", ctypes.c_uint32 * 3),
        ("workgroup_size", ctypes.c_uint32 * 3),
        ("static_lds_bytes", ctypes.c_uint32),
        ("dynamic_lds_bytes", ctypes.c_uint32),
        ("kernarg_size", ctypes.c_uint32),
    ]


SEVERITIES = ("error", "warning", "internal")


class Diagnostic:
    """One diagnostic of libwavecc (wavecc_diagnostic) as data."""

    def __init__(self, d):
        def s(x):
            return x.decode("utf-8", "replace") if x else None
        self.severity = SEVERITIES[d.severity] if 0 <= d.severity < len(SEVERITIES) else str(d.severity)
        self.message = s(d.message)
        self.file, self.line, self.col = s(d.file), d.line, d.col
        self.json_path = s(d.json_path)
        self.op = s(d.op)
        self.source_file, self.source_line, self.source_col = s(d.source_file), d.source_line, d.source_col
        self.hint = s(d.hint)
        self.text = s(d.text)

    def __repr__(self):
        return "Diagnostic(%s: %s)" % (self.severity, self.text)


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
        "wavecc_last_diagnostic_count": (ctypes.c_size_t, []),
        "wavecc_last_diagnostic": (ctypes.c_int, [ctypes.c_size_t, ctypes.POINTER(_Diag)]),
        "wavecc_compiled_num_diagnostics": (ctypes.c_size_t, [P]),
        "wavecc_compiled_diagnostic": (ctypes.c_int, [P, ctypes.c_size_t, ctypes.POINTER(_Diag)]),
        "wavecc_compile_ex": (P, [P, ctypes.POINTER(_CompileOptions), ctypes.POINTER(P)]),
        "wavecc_compiled_launch_evaluate": (ctypes.c_int, [P, ctypes.POINTER(_Define), ctypes.c_size_t,
                                                           ctypes.POINTER(_LaunchInfo), ctypes.POINTER(P)]),
        "wavecc_kernel_num_params": (ctypes.c_size_t, [P]),
        "wavecc_kernel_param": (ctypes.c_int, [P, ctypes.c_size_t, ctypes.POINTER(_ParamInfo), ctypes.POINTER(P)]),
        "wavecc_compiled_num_params": (ctypes.c_size_t, [P]),
        "wavecc_compiled_param": (ctypes.c_int, [P, ctypes.c_size_t, ctypes.POINTER(_ParamInfo),
                                                 ctypes.POINTER(P)]),
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


def last_diagnostics():
    """The calling thread's diagnostics of its last library call."""
    L = lib()
    out = []
    for i in range(L.wavecc_last_diagnostic_count()):
        d = _Diag()
        d.struct_size = ctypes.sizeof(_Diag)
        if L.wavecc_last_diagnostic(i, ctypes.byref(d)) == 0:
            out.append(Diagnostic(d))
    return out


def _error(on_error, err, cls=None):
    """The exception for a failed call: its text (through on_error) and its diagnostics."""
    diags = last_diagnostics()
    text = _take_error(err)
    msg = on_error(text, diags) if getattr(on_error, "takes_diags", False) else on_error(text)
    return (cls or WaveccError)(msg, diags)


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
            raise _error(self._on_error, err)

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
            raise _error(self._on_error, err)

    def args(self):
        out = []
        for i in range(lib().wavecc_kernel_num_args(self._h)):
            info = _ArgInfo()
            err = ctypes.c_void_p()
            if lib().wavecc_kernel_arg(self._h, i, ctypes.byref(info), ctypes.byref(err)) != 0:
                raise _error(self._on_error, err)
            out.append(ArgInfo(info))
        return out

    def params(self):
        """Every parameter, scalars and runtime sizes included, with dtype, kernarg offset and size."""
        L = lib()
        return _params(L.wavecc_kernel_num_params, L.wavecc_kernel_param, self._h, self._on_error)

    def compile(self, target=None, llvm_mc=None, schedule=None, lds_stages=0, waves_per_eu=0, interleave=None,
                no_schedule=False, denorm_fp_math_f32=None, cache_dir=None, defines=None):
        """wavecc_compile_ex with the command line's options (None / 0: the graph's options, else the default)."""
        def b(x):
            return x.encode() if x else None
        o = _CompileOptions()
        o.struct_size = ctypes.sizeof(_CompileOptions)
        o.target, o.llvm_mc, o.schedule = b(target), b(llvm_mc), b(schedule)
        o.lds_stages, o.waves_per_eu, o.no_schedule = int(lds_stages or 0), int(waves_per_eu or 0), int(no_schedule)
        o.interleave, o.denorm_fp_math_f32, o.cache_dir = b(interleave), b(denorm_fp_math_f32), b(cache_dir)
        defs = list((defines or {}).items())
        arr = (_Define * max(1, len(defs)))(*[_Define(n.encode(), int(v)) for n, v in defs])
        o.defines, o.ndefines = ctypes.cast(arr, ctypes.c_void_p), len(defs)
        err = ctypes.c_void_p()
        h = lib().wavecc_compile_ex(self._h, ctypes.byref(o), ctypes.byref(err))
        if not h:
            raise _error(self._on_error, err)
        return Compiled(h, self._on_error)

    def interpret(self, buffers):
        """Run the reference interpreter on {name: writable buffer}."""
        bufs, keep = _buffers(buffers)
        err = ctypes.c_void_p()
        if lib().wavecc_interpret(self._h, bufs, len(keep), ctypes.byref(err)) != 0:
            raise _error(self._on_error, err)

    def fill_random(self, i, seed, buf):
        """Fill a writable buffer with the seeded generator of `wavecc run` for argument i."""
        addr, size = _address(buf)
        err = ctypes.c_void_p()
        if lib().wavecc_fill_random(self._h, i, seed, addr, size, ctypes.byref(err)) != 0:
            raise _error(self._on_error, err)


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
        self.diagnostics = []
        for i in range(L.wavecc_compiled_num_diagnostics(h)):
            d = _Diag()
            d.struct_size = ctypes.sizeof(_Diag)
            if L.wavecc_compiled_diagnostic(h, i, ctypes.byref(d)) == 0:
                self.diagnostics.append(Diagnostic(d))
        self.warnings = [d for d in self.diagnostics if d.severity == "warning"]

    def __del__(self):
        h = getattr(self, "_h", None)
        if h and _lib is not None:
            _lib.wavecc_compiled_free(h)
            self._h = None

    def run(self, buffers, backend=WAVECC_BACKEND_EMULATOR):
        """Run on {name: writable buffer}; the kernel writes into them. A HIP run that finds no AMD GPU (or no
        HIP runtime) raises NoDeviceError."""
        bufs, keep = _buffers(buffers)
        err = ctypes.c_void_p()
        st = lib().wavecc_run(self._h, backend, bufs, len(keep), ctypes.byref(err))
        if st != 0:
            if backend == WAVECC_BACKEND_HIP and st == WAVECC_ERUN:
                diags = last_diagnostics()
                text = _take_error(err)
                if "no AMD GPU" in text or "cannot load the HIP runtime" in text:
                    raise NoDeviceError(text, diags)
                raise WaveccError(self._on_error(text), diags)
            raise _error(self._on_error, err)

    def params(self):
        """The compiled kernel's parameters in kernarg order (what a launch writes where)."""
        L = lib()
        return _params(L.wavecc_compiled_num_params, L.wavecc_compiled_param, self._h, self._on_error)

    def launch_evaluate(self, values=None):
        """Grid, workgroup size, static and dynamic LDS and kernarg size for {symbol: value} of the runtime
        sizes (wavecc_compiled_launch_evaluate), as a dict."""
        defs = list((values or {}).items())
        arr = (_Define * max(1, len(defs)))(*[_Define(n.encode(), int(v)) for n, v in defs])
        info = _LaunchInfo()
        info.struct_size = ctypes.sizeof(_LaunchInfo)
        err = ctypes.c_void_p()
        if lib().wavecc_compiled_launch_evaluate(self._h, arr, len(defs), ctypes.byref(info), ctypes.byref(err)):
            raise _error(self._on_error, err)
        return {"grid": tuple(info.grid), "workgroup_size": tuple(info.workgroup_size),
                "static_lds_bytes": info.static_lds_bytes, "dynamic_lds_bytes": info.dynamic_lds_bytes,
                "kernarg_size": info.kernarg_size}


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
