"""_compile.py — the @wave decorator, WaveCompileOptions, wave_compile and the kernel object.

LaunchableWave.trace() runs the kernel function under a Trace (see _trace.py):
each parameter's annotation says what it is (Memory[...] a buffer, a dtype a
scalar). emit_kernel() turns the trace and the options into the JSON
document. wave_compile() parses it with libwavecc (errors here are the
format's validation, reported at the Python line of the op the JSON path
names), compiles it when it needs no call-time values, and returns a
WaveKernel.

Calling a WaveKernel with numpy arrays (or CPU torch tensors) runs it on the
emulator: dynamic symbols take their values from the arrays' shapes (the
kernel is compiled once per distinct set of them), scalar arguments from the
call, passed to wavecc_run as value entries (libwavecc 0.3). Outputs land in
the arrays given.
"""
import copy
import inspect
import json
import os
import re
import shutil
import subprocess
import tempfile

import sympy

from . import _lib
from ._dtype import DataType
from ._lib import WaveccError
from .indexing import index_symbol
from ._trace import (Trace, MemArg, Reg, ScalarArg, SymbolArg, _current, emit_body, expr_json, dim_name, dims_json,
                     fail, format_location)
from ._types import Memory, SymbolBind
from ._constraints import constraint_json, IteratorBindings


def _make_sched():
    """Wave's SchedulingType; emitted as the lower-case name in options.schedule."""
    import enum

    class _S(enum.Enum):
        NONE = 0x00
        MODULO = 0x10
        PREFETCH = 0x20
        FOUR_STAGE = 0x21
        PREFETCH_ATTENTION = 0x22
        MANUAL = 0x30
    _S.__name__ = "SchedulingType"
    _S.__qualname__ = "SchedulingType"
    return _S


SchedulingType = _make_sched()

_DEFAULT = object()

# WaveCompileOptions: Wave's fields and defaults. Fields with a wavecc meaning
# are read by emit_kernel / wave_compile; the rest are accepted and kept.
_OPTION_FIELDS = {
    "postprocess": None, "canonicalize": True, "func_name": "isolated_benchmark", "subs": None,
    "dynamic_symbols": None, "schedule": _DEFAULT, "use_scheduling_barriers": False, "multi_buffer_count": None,
    "kernel_launch_info": None, "kernel_usages": None, "backend": "llvm", "device": "hip", "target": "gfx942",
    "codeobj": "5", "iree_preprocessing_pass_pipeline": None, "num_devices": 1, "use_water_backend": False,
    "linearize_reads": True, "run_bench": False, "benchmark_batch_size": None, "benchmark_repetitions": None,
    "benchmark_results_file": None, "capture_trace": False, "bench_with_constant_weights": False,
    "profile_python_wrapper": False, "profile_python_cprofile": True, "profile_python_warmup": 1,
    "profile_python_repetitions": 1000, "kernel_hash": None, "create_vmfb_file": None, "override_mlir": None,
    "dump_binaries": None, "dump_intermediates": None, "compile_to_mlir": False, "location_capture_config": None,
    "use_local_scope": False, "use_water_leak_check": False, "check_water_analysis": False,
    "enforce_locations": True, "drop_debug_info_before_mlir": True, "verify_region_captures": True,
    "optimization_level": True, "denorm_fp_math_f32": None, "waves_per_eu": None, "wave_runtime": False,
    "iree_launch_async": True, "use_buffer_ops": False, "use_fast_math": False, "use_global_to_shared": False,
    "linearize_shared_access": False, "scalarize_packed_math": False, "coalescing_strategy_hint": None,
    "enable_swizzle": True, "enable_mark_hardware_transpose_candidates": True, "minimize_shared_allocs": True,
    "reorder_allocs": True, "override_schedule": None, "dump_schedule": None, "use_bound_check": False,
    "specialize": False, "eliminate_epilogue": False, "cluster_barrier_delay": None,
    "allow_noncontiguous_runtime_buffers": False, "edit_ir_before": None, "edit_ir_after": None,
    "edit_ir_before_all": False, "edit_ir_after_all": False, "mlir_print_ir_after_all": False,
    "print_ir_after": None, "print_ir_before": None, "profile_pass": None, "print_trace_begin": False,
    "print_grid": False, "print_signature": False, "print_mlir": False, "print_mlir_file": None,
    "print_mlir_before_water": False, "print_mlir_after_water": False, "print_pass_times": False,
    "compile_to_asm": False,
    # wavecc's own
    "llvm_mc": None, "interleave": None, "lds_stages": None, "wavecc_backend": None,
}

# Wave's boolean options that wavecc-kernel/1 accepts (and ignores) under "options"
_PASSED_BOOLS = ("use_scheduling_barriers", "use_buffer_ops", "use_global_to_shared", "minimize_shared_allocs",
                 "reorder_allocs", "linearize_reads", "linearize_shared_access", "scalarize_packed_math",
                 "use_fast_math", "canonicalize")


class WaveCompileOptions:
    """Wave's compile options (the same field names and defaults)."""

    def __init__(self, **kwargs):
        for k, v in _OPTION_FIELDS.items():
            setattr(self, k, copy.copy(v) if isinstance(v, (list, dict)) else v)
        self.subs = {}
        self.dynamic_symbols = []
        self.print_ir_after = []
        self.print_ir_before = []
        for k, v in kwargs.items():
            if k not in _OPTION_FIELDS:
                raise TypeError("WaveCompileOptions.__init__() got an unexpected keyword argument '%s'" % k)
            setattr(self, k, v)

    def __repr__(self):
        return "WaveCompileOptions(subs=%r, dynamic_symbols=%r, target=%r)" % (
            self.subs, self.dynamic_symbols, self.target)


def _sym_name(k):
    return k if isinstance(k, str) else getattr(k, "name", str(k))


def _space_name(v):
    """'global' / 'shared' for Wave's address space values, else None."""
    n = getattr(v, "name", None)
    if n in ("$GLOBAL_ADDRESS_SPACE", "GLOBAL_MEMORY"):
        return "global"
    if n in ("$SHARED_ADDRESS_SPACE", "SHARED_MEMORY"):
        return "shared"
    if v in ("global", "shared"):
        return v
    return None


class LaunchableWave:
    """The kernel a @tkw.wave function becomes."""

    def __init__(self, constraints, name, fn):
        self.constraints = list(constraints or [])
        self._name = name
        self._f = fn
        self._trace = None
        self.loc = (fn.__code__.co_filename, fn.__code__.co_firstlineno, name)

    @property
    def name(self):
        return self._name

    def trace(self):
        if self._trace is not None:
            return self._trace
        tr = Trace(self._name)
        tr.constraints = self.constraints
        sig = inspect.signature(self._f)
        hints = dict(getattr(self._f, "__annotations__", {}))
        params = []
        for p in sig.parameters.values():
            ann = hints.get(p.name, p.annotation)
            if isinstance(ann, str):
                try:
                    ann = eval(ann, self._f.__globals__)
                except Exception as e:
                    fail("kernel %s: parameter %s: annotation %r: %s" % (self._name, p.name, ann, e), self.loc)
            tr.names.add(p.name)
            if inspect.isclass(ann) and issubclass(ann, Memory):
                a = MemArg(p.name, ann, self.loc)
            elif isinstance(ann, DataType):
                a = Reg(ScalarArg(p.name, ann, self.loc), (), ann)
            elif inspect.isclass(ann) and issubclass(ann, SymbolBind):
                if ann.dtype is not None and not ann.dtype.is_int_asm():
                    fail("kernel %s: parameter %s: SymbolBind[%s]: a symbol's value is an integer"
                         % (self._name, p.name, ann.dtype), self.loc)
                a = SymbolArg(p.name, ann.dtype, self.loc)
                tr.args.append(a)
                params.append(index_symbol(p.name))
                continue
            else:
                fail("kernel %s: parameter %s needs a Memory[...] or dtype annotation, has %r"
                     % (self._name, p.name, ann), self.loc)
            tr.args.append(a)
            params.append(a)
        _current.append(tr)
        try:
            self._f(*params)
        finally:
            _current.pop()
        self._trace = tr
        return tr

    def __call__(self, *args, **kwargs):
        raise WaveccError("a @tkw.wave kernel runs after wave_compile(options, kernel)")


def wave(constraints=None):
    def decorator(f):
        return LaunchableWave(constraints, f.__name__, f)
    return decorator


def wave_trace_only(constraints=None, **kwargs):
    def decorator(f):
        k = LaunchableWave(constraints, f.__name__, f)
        return k.trace
    return decorator


def _options_json(o):
    d = {}
    if o.schedule is not _DEFAULT and o.schedule is not None:
        name = getattr(o.schedule, "name", o.schedule)
        if name is False or name == 0:
            name = "NONE"
        if name is True:
            name = "PREFETCH"
        if str(name).upper() == "MANUAL":
            return _options_json_rest(o, d)  # wavecc's own schedule (see wave_compile)
        d["schedule"] = str(name).lower()
    return _options_json_rest(o, d)


def _options_json_rest(o, d):
    if o.multi_buffer_count is not None:
        d["multi_buffer_count"] = int(o.multi_buffer_count)
    if o.lds_stages is not None:
        d["lds_stages"] = int(o.lds_stages)
    if o.waves_per_eu is not None:
        d["waves_per_eu"] = int(o.waves_per_eu)
    if o.denorm_fp_math_f32 is not None:
        d["denorm_fp_math_f32"] = o.denorm_fp_math_f32
    if o.interleave is not None:
        d["interleave"] = o.interleave
    for b in _PASSED_BOOLS:
        if getattr(o, b) != _OPTION_FIELDS[b]:
            d[b] = bool(getattr(o, b))
    return d


def emit_kernel(kernel, options, scalar_values=None):
    """(JSON document dict, {JSON path: node or arg}) for kernel under options."""
    tr = kernel.trace()
    dyn = [_sym_name(s) for s in (options.dynamic_symbols or [])]
    symbols, spaces = {}, {}
    for k, v in (options.subs or {}).items():
        # a number as a key (a test that set BLOCK_N = 64 before writing
        # {BLOCK_N: 64}) substitutes nothing in Wave: no symbol of that name
        if isinstance(k, (int, float)) or getattr(k, "is_Number", False):
            continue
        name = _sym_name(k)
        sp = _space_name(v)
        if sp:
            spaces[name] = sp
        elif name in dyn:
            continue
        elif isinstance(v, float) and not v.is_integer():
            fail("options.subs[%s] = %r: symbol values are integers" % (name, v), kernel.loc)
        else:
            symbols[name] = expr_json(v, "options.subs[%s]" % name)
    for axis, step, loc in getattr(tr, "unit_tiles", ()):
        v = sympy.sympify(step).subs({sympy.Symbol(k, integer=True, nonnegative=True): val
                                      for k, val in symbols.items() if isinstance(val, int)})
        if v != 1:
            fail("a read of a memory with dim %s inside the loop over %s reads one %s per trip (its vector shape "
                 "is 1), so its tile must be 1, not %s" % (axis, axis, axis, v), loc)
    # a symbolic alias defines its source (Wave's decode templates also give U a value in subs and list it as
    # dynamic: the alias' expression stands for it)
    for c in kernel.constraints:
        if type(c).__name__ == "SymbolicAlias":
            src = _sym_name(c.source)
            symbols.pop(src, None)
            dyn = [d for d in dyn if d != src]
    paths = {}
    args = []
    for d in tr.debug_logs:  # tkw.debug_log's memories: after the kernel's own arguments; extra dims' sizes
        for sym, n in d["extra"]:
            symbols[_sym_name(sym)] = n
    for a in list(tr.args) + [d["arg"] for d in tr.debug_logs]:
        if isinstance(a, SymbolArg) or (isinstance(a, Reg) and a.ref.name in tr.symbol_scalars):
            # a dynamic symbol, no argument of the format
            a = a if isinstance(a, SymbolArg) else a.ref
            symbols.pop(a.name, None)
            if a.name not in dyn:
                dyn.append(a.name)
            continue
        paths["arguments[%d]" % len(args)] = a
        if isinstance(a, MemArg):
            _check_layout(a, symbols, kernel.loc)
            space = a.mtype.address_space
            sp = _space_name(space)
            if sp is None:
                sname = _sym_name(space)
                if sname not in spaces:
                    fail("argument %s: address space %s has no value in options.subs (GLOBAL_ADDRESS_SPACE or "
                         "SHARED_ADDRESS_SPACE)" % (a.name, sname), kernel.loc)
                sp = sname
            args.append({"name": a.name, "type": "memory", "shape": dims_json(a.shape), "address_space": sp,
                         "dtype": a.dtype.format_name})
        elif scalar_values is None or a.name not in scalar_values:
            args.append({"name": a.name, "type": "scalar", "dtype": a.dtype.format_name})
    nodes = list(_walk(tr.root))
    # Wave's set_symbol may name a symbol nothing binds (5_gemm.py's IDX): the format's set_symbol takes a
    # dynamic symbol, so it becomes one (bound to 0 at a call when no argument's shape gives it)
    # -- except in a loop with a condition, whose axis and the symbols set directly in its body are the loop's
    # (not in a loop with max_trips: its axis is a carried value, a dynamic symbol the body's set_symbol binds,
    # docs/kernel-format.md "A carried axis with max_trips")
    loop_set = set()
    for n in nodes:
        if n.op == "iterate" and "condition" in n.fields and "max_trips" not in n.fields:
            loop_set.add(n.fields["axis"])
            loop_set.update(m.fields["symbol"] for m in n.body if m.op == "set_symbol")
    loop_set -= {n.fields["axis"] for n in nodes if n.op == "iterate" and "max_trips" in n.fields}
    for n in nodes:
        s = n.fields.get("symbol") if n.op == "set_symbol" else None
        if s is not None and s not in symbols and s not in dyn and s not in loop_set:
            dyn.append(s)
    # a Memory argument in the shared address space that the kernel only writes is written to global memory
    # (Wave promotes reads through LDS, never writes): the format's "shared" promotes, so it is given as global
    read_args = set()
    for n in nodes:
        for k, v in n.fields.items():
            if isinstance(v, MemArg) and not (n.op == "write" and k == "memory"):
                read_args.add(v.name)
    for a in args:
        if a["type"] == "memory" and a["name"] not in read_args and \
                (a["address_space"] == "shared" or spaces.get(a["address_space"]) == "shared"):
            a["address_space"] = "global"
    doc = {"format": "wavecc-kernel/1", "name": kernel.name}
    if symbols:
        doc["symbols"] = symbols
    if dyn:
        doc["dynamic_symbols"] = dyn
    if spaces:
        doc["address_spaces"] = spaces
    emitted = [c for c in kernel.constraints if not isinstance(c, IteratorBindings)]  # used by the trace only
    doc["constraints"] = [constraint_json(c) for c in emitted]
    for i, c in enumerate(emitted):
        paths["constraints[%d]" % i] = c
    doc["arguments"] = args
    graph = emit_body(tr.root, "graph", paths)
    _drop_unused_vector_shapes(doc, graph)
    if scalar_values:
        consts = [{"name": n, "op": "scalar", "value": v, "dtype": t} for n, (v, t) in scalar_values.items()]
        graph = consts + graph
        paths = {_shift(p, len(consts)): n for p, n in paths.items()}
    doc["graph"] = graph
    _name_compound_dims(doc)
    opts = _options_json(options)
    if opts:
        doc["options"] = opts
    return doc, paths


# the functions of the format's expressions (docs/kernel-format.md), not symbols
_EXPR_FUNCTIONS = ("floor", "ceiling", "Mod", "Max", "Min", "Piecewise", "xor", "And", "Or", "Not")


def _compound(text):
    """Whether a dim's text is an expression of more than one symbol (Wave's M = SZ_OUT * N)."""
    if not isinstance(text, str) or "$" in text:
        return False
    try:
        e = sympy.sympify(text, locals={n: sympy.Symbol(n) for n in re.findall(r"[A-Za-z_][A-Za-z_0-9]*", text)
                                        if n not in _EXPR_FUNCTIONS})
    except (sympy.SympifyError, SyntaxError, TypeError):
        return False
    return len(e.free_symbols) > 1


def _name_compound_dims(doc):
    """The format's dims are symbols or expressions of one symbol; Wave's may be any expression (test_conv's
    M = SZ_OUT * N, K = HF * WF * C): each such dim becomes a symbol named after its text (C*HF*WF: C_HF_WF)
    whose value is the expression, everywhere the dim is named."""
    found = []
    for a in doc.get("arguments", []):
        found += a.get("shape", [])
    found += [c.get("dim") for c in doc.get("constraints", [])]

    def nodes(ns):
        for n in ns:
            yield n
            yield from nodes(n.get("body", []))
    for n in nodes(doc.get("graph", [])):
        found += n.get("shape", []) + n.get("target_shape", [])
        for k in ("inputs", "outputs"):
            found += list((n.get("mapping") or {}).get(k, {}))
    compound = [t for t in dict.fromkeys(found) if _compound(t)]
    if not compound:
        return
    taken = set(doc.get("symbols", {})) | set(doc.get("dynamic_symbols", [])) | \
        set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", json.dumps(doc)))
    names = {}
    for t in compound:
        base = re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9_]", "_", t)).strip("_") or "DIM"
        name, i = base, 0
        while name in taken:
            i += 1
            name = "%s_%d" % (base, i)
        taken.add(name)
        names[t] = name

    def sub(x):
        if isinstance(x, dict):
            return {names.get(k, k) if isinstance(k, str) else k: sub(v) for k, v in x.items()}
        if isinstance(x, list):
            return [sub(v) for v in x]
        return names.get(x, x) if isinstance(x, str) else x
    for k in list(doc):
        if k not in ("symbols", "format", "name"):
            doc[k] = sub(doc[k])
    doc.setdefault("symbols", {}).update((n, t) for t, n in names.items())


def _launch_shape(a, arr, runtime):
    """The shape argument a is launched with: the array's, with each runtime size at its launch value."""
    return tuple(runtime.get(dim_name(d), n) if dim_name(d) in runtime else n for d, n in zip(a.shape, arr.shape))


def _check_layout(a, symbols, loc):
    """Wave's MemoryLayout(shape=...) gives a memory's physical shape; wavecc-kernel/1 has none, so a layout is
    accepted only where its shape is the memory's own (Wave's GQA decode passes the k and v shapes so)."""
    layout = a.mtype.physical_layout
    if layout is None:
        return
    vals = {sympy.Symbol(k, integer=True, nonnegative=True): v for k, v in symbols.items() if isinstance(v, int)}
    dims = [sympy.sympify(d).subs(vals) for d in a.shape]
    want = list(layout.shape or ())
    # a dim with no value (a dynamic symbol, or one a set_symbol gives) takes the array's extent at a call, which
    # is the physical one: any layout entry goes (Wave's prefill lays N_Q out as the packed token count)
    if len(want) != len(dims) or any(d.is_Integer and (w is None or int(d) != int(w)) for d, w in zip(dims, want)):
        fail("argument %s: a MemoryLayout of shape %s differs from the memory's %s (%s): a physical layout other "
             "than the memory's own is not in wavecc-kernel/1" % (a.name, tuple(want), dims_json(a.shape),
                                                                  [str(d) for d in dims]), loc)


def _walk(nodes):
    for n in nodes:
        yield n
        if n.body:
            yield from _walk(n.body)


_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$.]*")


def _drop_unused_vector_shapes(doc, graph):
    """Wave ignores a vector_shapes entry of a symbol the kernel never uses (3_atomics.py's LIMIT_VAL, with no
    value); the format would ask for its value, so such an entry is left out."""
    used = set(doc.get("symbols", {})) | set(doc.get("dynamic_symbols", []))
    text = json.dumps([doc["arguments"], graph] + [c for c in doc["constraints"] if c.get("kind") != "hardware"])
    used |= set(_IDENT.findall(text))
    for c in doc["constraints"]:
        vs = c.get("vector_shapes")
        if c.get("kind") == "hardware" and vs:
            for k in [k for k in vs if k not in used]:
                del vs[k]
            if not vs:
                del c["vector_shapes"]


def _shift(path, k):
    m = re.match(r"graph\[(\d+)\](.*)", path)
    return "graph[%d]%s" % (int(m.group(1)) + k, m.group(2)) if m else path


_AT = re.compile(r" \(at [^()]*:\d+(?::\d+)?\)$")
_PATH = re.compile(r"(graph(?:\[\d+\](?:\.body\[\d+\])*)|arguments\[\d+\]|constraints\[\d+\])")


def locate_errors(text, paths, kernel):
    """Prefix each diagnostic line that names a JSON path with the Python location of its op."""
    out = []
    for line in text.splitlines():
        line = _AT.sub("", line)
        m = None
        for m in _PATH.finditer(line):
            break
        where = None
        if m:
            p = m.group(1)
            while p and p not in paths:
                p = p[:p.rfind(".body")] if ".body" in p else ""
            obj = paths.get(p)
            if obj is not None:
                loc = getattr(obj, "loc", None) or getattr(obj, "_loc", None)
                what = ("%s '%s'" % (obj.op, obj.name)) if hasattr(obj, "op") else \
                    ("argument '%s'" % obj.name) if hasattr(obj, "name") else type(obj).__name__
                where = "%s: %s" % (format_location(loc), what)
        if where is None and line.strip():
            where = "%s: kernel %s" % (format_location(kernel.loc), kernel.name)
        if m:  # a constraint named further on (what to shrink): where the program made it
            head, tail = line[:m.end()], line[m.end():]
            line = head + _CON_TILE.sub(lambda c: _constraint_at(c, paths), tail)
        out.append("%s: %s" % (where, line) if where else line)
    return "\n".join(out)


_CON_TILE = re.compile(r"constraints\[(\d+)\]\.tile")


def _constraint_at(m, paths):
    c = paths.get("constraints[%s]" % m.group(1))
    loc = getattr(c, "_loc", None)
    return "%s (%s at %s)" % (m.group(0), type(c).__name__, format_location(loc)) if loc else m.group(0)


def _np():
    import numpy
    return numpy


_NP_DTYPES = {"f16": "float16", "f32": "float32", "f64": "float64", "i8": "int8", "i16": "int16",
              "i32": "int32", "i64": "int64", "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
              "i1": "bool"}


def numpy_dtype(fmt):
    """The numpy dtype of a format dtype (bf16 and the f8 types: their raw unsigned bits)."""
    np = _np()
    if fmt in _NP_DTYPES:
        return np.dtype(_NP_DTYPES[fmt])
    return np.dtype("uint16" if fmt == "bf16" else "uint8")


def _scalar_bytes(v, fmt):
    """A scalar argument's value as the kernel reads it: bf16 as its bits (rounded to nearest even)."""
    np = _np()
    if fmt == "bf16":
        from . import bf16
        return bf16.to_bf16(v).tobytes()
    if fmt not in _NP_DTYPES:
        raise WaveccError("a %s scalar argument: give its value through a wider dtype and tkw.cast (wavecc "
                          "converts only bf16 numbers to their bits)" % fmt)
    return np.array(v, dtype=numpy_dtype(fmt)).tobytes()


def _write(path, data):
    with open(path, "wb" if isinstance(data, (bytes, bytearray)) else "w") as f:
        f.write(data)


def _as_array(x, name):
    np = _np()
    if isinstance(x, np.ndarray):
        return x
    if hasattr(x, "detach") and hasattr(x, "numpy"):  # a torch CPU tensor: shares its memory
        dev = str(getattr(x, "device", "cpu"))
        if dev != "cpu":
            raise WaveccError("argument %s: a torch tensor on %s; wavecc takes host memory (a CPU tensor or a "
                              "numpy array)" % (name, dev))
        t = x.detach()
        dt = str(getattr(t, "dtype", ""))
        if dt == "torch.bfloat16":  # numpy has no bf16: its raw bits, as the kernel reads them
            import torch
            return t.view(torch.int16).numpy().view(np.uint16)
        if dt.startswith("torch.float8"):
            import torch
            return t.view(torch.uint8).numpy()
        return t.numpy()
    raise WaveccError("argument %s: expected a numpy array (or a CPU torch tensor), got %s" % (name, type(x)))


class WaveKernel:
    """What wave_compile returns: .asm, .code_object, .json, .launch, .stats; call it to run."""

    def __init__(self, options, kernel):
        self.options = options
        self.kernel = kernel
        self.doc, self.paths = emit_kernel(kernel, options)
        self.json = json.dumps(self.doc, indent=1)
        self._lk = self._parse(self.json, self.paths)
        self._compiled = {}
        self._last = None
        self._last_values = {}
        self.last_backend = None
        tr = kernel.trace()
        self._dyn = list(self.doc.get("dynamic_symbols", []))
        self._scalars = [a for a in tr.args if isinstance(a, Reg)]
        # the symbols the kernel sets (set_symbol) are runtime sizes, never compiled in: the kernel sets the extent,
        # loop start or trip count it works with from there; their launch value is the extent of the arrays that
        # have them as a dim, else 0
        set_syms = {n.fields["symbol"] for n in _walk(tr.root) if n.op == "set_symbol"}
        self._runtime = [d for d in self._dyn if d in set_syms]
        if set(self._dyn) <= set(self._runtime):  # nothing a call would compile in: compile now
            self._last = self._compile_doc(None)

    def _on_error(self, paths):
        return lambda text: locate_errors(text, paths, self.kernel)

    def _parse(self, text, paths):
        return _lib.Kernel(text, "<wave kernel %s>" % self.kernel.name, self._on_error(paths))

    def _compile_doc(self, key):
        if key in self._compiled:
            return self._compiled[key]
        dyn, scal = key if key else ((), ())
        if scal:
            doc, paths = emit_kernel(self.kernel, self.options, dict(scal))
            lk = self._parse(json.dumps(doc, indent=1), paths)
        else:
            lk = self._lk
        for n, v in dyn:
            lk.set_symbol(n, v)
        c = lk.compile(target=self.options.target if self.options.target else None, llvm_mc=self.options.llvm_mc)
        self._compiled[key] = (lk, c)
        self._dump(c)
        return lk, c

    def _dump(self, c):
        """Wave's file options, with wavecc's products: dump_intermediates gets the traced graph (NAME.json) and
        the annotated assembly (NAME.rocmasm), dump_binaries and create_vmfb_file the ELF code object (not an
        IREE module: wavecc makes none), dump_schedule a note naming the schedule wavecc applied (it has no
        Wave schedule to write; override_schedule is accepted and not read)."""
        o, name = self.options, self.kernel.name
        if o.dump_intermediates:
            os.makedirs(str(o.dump_intermediates), exist_ok=True)
            _write(os.path.join(str(o.dump_intermediates), name + ".json"), self.json)
            _write(os.path.join(str(o.dump_intermediates), name + ".rocmasm"), c.assembly)
        if o.dump_binaries:
            os.makedirs(str(o.dump_binaries), exist_ok=True)
            _write(os.path.join(str(o.dump_binaries), name + ".hsaco"), c.code_object)
        if o.create_vmfb_file:
            _write(str(o.create_vmfb_file), c.code_object)
        if o.dump_schedule:
            sched = self.doc.get("options", {}).get("schedule", "wavecc's default")
            _write(str(o.dump_schedule), "# wavecc: kernel %s scheduled by wavecc (schedule: %s); Wave's schedule "
                   "file format is not written and override_schedule is not read\n" % (name, sched))

    def _compiled_last(self):
        if self._last is None:
            # dynamic symbols and no call yet (Wave's lit tests print .asm right after wave_compile): the kernel
            # compiled with them as runtime sizes, its launch grid expressions of them; calls still compile per
            # value
            try:
                self._last = self._compile_doc(None)
            except WaveccError as e:
                raise WaveccError("kernel %s has dynamic symbols and does not compile with them left to run "
                                  "time: call it once to compile it for their values (%s)"
                                  % (self.kernel.name, e)) from e
        return self._last[1]

    @property
    def asm(self):
        return self._compiled_last().assembly

    @property
    def code_object(self):
        return self._compiled_last().code_object

    @property
    def launch(self):
        return self._compiled_last().launch

    @property
    def stats(self):
        return self._compiled_last().stats

    @property
    def warnings(self):
        """The compile's warnings (wavecc.Diagnostic: message, hint, source_file, source_line, ...)."""
        return self._compiled_last().warnings

    def params(self):
        """The compiled kernel's parameters in kernarg order (wavecc.ParamInfo: kind, dtype, kernarg offset and
        size, dims), for a frontend that launches the code object itself."""
        return self._compiled_last().params()

    def launch_info(self, values=None):
        """Grid, workgroup size, static and dynamic LDS (HIP's sharedMemBytes) and kernarg size, a dict; values
        gives the dynamic symbols the last compile left to run time."""
        return self._compiled_last().launch_evaluate(values)

    def profile(self, gpu=None, clock=None, as_text=False):
        """The cycle model's estimate of this kernel on a modelled GPU (`wavecc profile --json`, docs/
        cycle-model.md): a dict (cycles, seconds, tflops, the bound, the hot spots...), or the report as text.
        A model of the hardware, not a measurement: nothing runs on a GPU. The values of the last call (dynamic
        symbols, scalars) are used; scalars not yet given are 1."""
        self._compiled_last()
        exe = wavecc_executable()
        doc = json.loads(self.json)
        defs = dict(self._last_values)
        with tempfile.TemporaryDirectory(prefix="wavecc-profile-") as d:
            path = os.path.join(d, "%s.json" % self.kernel.name)
            with open(path, "w") as f:
                json.dump(doc, f)
            cmd = [exe, "profile", path]
            if not as_text:
                cmd.append("--json")
            if self.options.target:
                cmd += ["--mcpu", str(self.options.target)]
            if gpu:
                cmd += ["--gpu", str(gpu)]
            if clock:
                cmd += ["--clock", str(clock)]
            for n, v in defs.items():
                cmd += ["-D", "%s=%s" % (n, v)]
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        if r.returncode != 0:
            raise WaveccError("kernel %s: wavecc profile failed: %s" % (self.kernel.name, r.stderr.strip()))
        return r.stdout if as_text else json.loads(r.stdout)

    def get_kernel_name(self):
        return self.kernel.name

    def __call__(self, *args, **kwargs):
        tr = self.kernel.trace()
        debug_logs = kwargs.pop("debug_logs", None)  # Wave's: filled with tkw.debug_log's values
        if kwargs:
            names = [a.name if isinstance(a, MemArg) else a.ref.name for a in tr.args]
            extra = [k for k in kwargs if k not in names]
            if extra:
                raise TypeError("kernel %s: unknown arguments %s" % (self.kernel.name, extra))
            args = list(args) + [kwargs[n] for n in names[len(args):] if n in kwargs]
        if len(args) != len(tr.args):
            raise TypeError("kernel %s takes %d arguments (%s), %d given" % (
                self.kernel.name, len(tr.args),
                ", ".join(a.name if isinstance(a, MemArg) else a.ref.name for a in tr.args), len(args)))
        dyn = {}
        arrays = {}
        scal = []
        for a, x in zip(tr.args, args):
            if isinstance(a, SymbolArg) or (isinstance(a, Reg) and a.ref.name in tr.symbol_scalars):
                a = a if isinstance(a, SymbolArg) else a.ref
                v = x.item() if hasattr(x, "item") else x
                if isinstance(v, float) and v.is_integer():
                    v = int(v)
                if not isinstance(v, int) or isinstance(v, bool):
                    raise WaveccError("argument %s (a SymbolBind): expected an integer, got %r" % (a.name, x))
                dyn[a.name] = v
                continue
            if isinstance(a, MemArg):
                arr = _as_array(x, a.name)
                arrays[a.name] = arr
                if arr.ndim != len(a.shape):
                    raise WaveccError("argument %s: rank %d array for %s%s" % (a.name, arr.ndim, a.dtype,
                                                                                 dims_json(a.shape)))
                for d, n in zip(a.shape, arr.shape):
                    dn = dim_name(d)
                    if dn in self._runtime:  # the arrays may differ (Wave's MemoryLayouts): the largest is launched
                        dyn[dn] = max(dyn.get(dn, 0), n)
                    elif dn in self._dyn:
                        if dyn.setdefault(dn, n) != n:
                            raise WaveccError("dynamic symbol %s is %d by one argument and %d by %s"
                                              % (dn, dyn[dn], n, a.name))
                    else:
                        self._solve_dim(d, n, a.name, dyn)
            else:
                v = x.item() if hasattr(x, "item") else x
                if not isinstance(v, (int, float)):
                    raise WaveccError("argument %s: expected a number, got %r" % (a.ref.name, x))
                t = a.dtype.format_name
                v = float(v) if a.dtype.is_float_asm() else int(v)
                scal.append((a.ref.name, (v, t)))
        debug = self._debug_arrays(dyn)
        arrays.update((d["arg"].name, arr) for d, arr in debug)
        # a symbol only set_symbol gives that is a dim of an argument (prefill's N_Q) stays a runtime size: the
        # kernel sets its extent from the array's (the launch value) down to what it reads; it is passed to the run
        runtime = {d: dyn.pop(d) if d in dyn else 0 for d in self._runtime}
        missing = [d for d in self._dyn if d not in dyn and d not in runtime]
        if missing:
            raise WaveccError("dynamic symbols %s are no dim of any argument: their values are unknown" % missing)
        # scalar values go to the run (libwavecc 0.3: a buffer entry holding the value), so one compile serves
        # every value
        key = (tuple(sorted(dyn.items())), ()) if dyn else None
        lk, c = self._compile_doc(key)
        self._last = (lk, c)
        # the arguments' dtypes and shapes (with runtime sizes left open the library gives no shapes yet: the
        # arrays' own extents are the launch values then)
        all_args = list(tr.args) + [d["arg"] for d in tr.debug_logs]
        infos = {i.name: (i.dtype, i.shape) for i in lk.args()} if not runtime else \
            {a.name: (a.dtype.format_name, None) for a in all_args if isinstance(a, MemArg)}
        np = _np()
        bufs, back = {}, []
        margs = {a.name: a for a in all_args if isinstance(a, MemArg)}
        for name, arr in arrays.items():
            dtype, shape = infos[name]
            want = numpy_dtype(dtype)
            raw = dtype not in _NP_DTYPES
            # the same bits: a raw dtype's storage, or signed and unsigned integers of one width (Wave's tests pass
            # uint8 tensors for i8 memories of packed MXFP4)
            same_bits = arr.dtype.itemsize == want.itemsize and (raw or (arr.dtype.kind in "iu" and want.kind in "iu"))
            if arr.dtype != want and not same_bits:
                hint = "; numpy has no bf16: pass its bit patterns, wavecc.bf16.to_bf16(x)" if dtype == "bf16" \
                    else ""
                raise WaveccError("argument %s: the kernel takes %s (numpy %s), the array is %s%s"
                                  % (name, dtype, want, arr.dtype, hint))
            if shape is not None and tuple(arr.shape) != shape:
                raise WaveccError("argument %s: the kernel takes shape %s, the array has %s"
                                  % (name, list(shape), list(arr.shape)))
            full = _launch_shape(margs[name], arr, runtime)
            if full != tuple(arr.shape):
                # shorter than the launch extent of a runtime size it shares with a longer array: a zero-padded
                # copy (the kernel's own extents, which it sets, stay inside the array's), written back after
                tmp = np.zeros(full, dtype=arr.dtype)
                tmp[tuple(slice(0, n) for n in arr.shape)] = arr
                bufs[name] = tmp
                back.append((arr, tmp))
                continue
            if arr.flags.c_contiguous and arr.flags.writeable:
                bufs[name] = arr
            else:
                tmp = np.ascontiguousarray(arr)
                bufs[name] = tmp
                back.append((arr, tmp))
        for name, (v, t) in scal:
            bufs[name] = bytearray(_scalar_bytes(v, t))
        for name, v in runtime.items():
            bufs[name] = bytearray(np.array(v, dtype=np.int32).tobytes())
        self._last_values = dict(dyn)
        self._last_values.update((n, v) for n, (v, t) in scal)
        self.last_backend = _run(c, bufs, self.options)
        for arr, tmp in back:
            if arr.flags.writeable:
                arr[...] = tmp[tuple(slice(0, n) for n in arr.shape)]
        self._debug_report(debug, debug_logs)
        if self.options.run_bench:
            self._bench()

    def _bench(self):
        """Wave's run_bench: benchmark results (Wave's format) in options.benchmark_results_file, else printed.
        Nothing runs on a GPU here, so the time is the cycle model's estimate (profile()), marked as such in each
        result's user_counters."""
        from .wave_lang.kernel.wave.utils.run_utils import bench_results, print_bench_result
        p = self.profile()
        sec = p.get("seconds") or p.get("time_s") or 0.0
        print_bench_result(bench_results(self.options.func_name or self.kernel.name, float(sec),
                                         self.options.benchmark_repetitions,
                                         "wavecc_cycle_model_estimate(not_measured)"),
                           self.options.benchmark_results_file)

    def _solve_dim(self, d, n, arg, dyn):
        """A dim that is an expression of one dynamic symbol (testPackedNonTransposeGemm's K / 2) gives the symbol
        its value: the integer solution of dim = extent."""
        e = sympy.sympify(d)
        free = [x for x in e.free_symbols if x.name in self._dyn]
        if len(free) != 1 or e.is_Symbol:
            return
        sols = [v for v in sympy.solve(sympy.Eq(e, n), free[0]) if getattr(v, "is_Integer", False)]
        if len(sols) != 1:
            raise WaveccError("argument %s: dim %s has extent %d, which gives %s no integer value"
                              % (arg, dim_name(d), n, free[0].name))
        v = int(sols[0])
        if dyn.setdefault(free[0].name, v) != v:
            raise WaveccError("dynamic symbol %s is %d by one argument and %d by %s (dim %s)"
                              % (free[0].name, dyn[free[0].name], v, arg, dim_name(d)))

    def _debug_arrays(self, dyn):
        """Zeroed arrays for tkw.debug_log's memories, their dims from subs, the dynamic values and the extra
        iteration dims' counts."""
        tr = self.kernel.trace()
        if not tr.debug_logs:
            return []
        values = {_sym_name(k): v for k, v in (self.options.subs or {}).items() if isinstance(v, int)}
        values.update(dyn)
        out = []
        for d in tr.debug_logs:
            values.update((_sym_name(s_), n) for s_, n in d["extra"])
            shape = []
            for dim in d["symbolic_shape"]:
                v = sympy.sympify(dim).subs({sympy.Symbol(k, integer=True, nonnegative=True): n
                                             for k, n in values.items()})
                if not v.is_Integer:
                    raise WaveccError("debug_log %s: dim %s has no value" % (d["name"], dim))
                shape.append(int(v))
            out.append((d, _np().zeros(shape, dtype=numpy_dtype(d["arg"].dtype.format_name))))
        return out

    def _debug_report(self, debug, debug_logs):
        """Wave's launcher: the logs into debug_logs, then each log's printer and the handlers."""
        if not debug:
            return
        logs = debug_logs if debug_logs is not None else {}
        for d, arr in debug:
            logs[d["name"]] = {"value": arr, "symbolic_shape": list(d["symbolic_shape"]),
                               "iteration_dimensions": [s_ for s_, _ in d["extra"]]}
        for d, arr in debug:
            if d["printer"] is not None:
                d["printer"](d["name"], arr)
        for h in self.kernel.trace().debug_handlers:
            h(logs)

    def __repr__(self):
        return "<WaveKernel %s>" % self.kernel.name


# Whether this process has found no GPU through HIP (then every run goes to the emulator).
_no_device = []


def _backend_wanted(options):
    """'hip', 'emulator' or 'auto': $WAVECC_BACKEND, else options.wavecc_backend."""
    b = os.environ.get("WAVECC_BACKEND") or getattr(options, "wavecc_backend", None) or "auto"
    b = {"emu": "emulator", "gpu": "hip"}.get(b, b)
    if b not in ("auto", "hip", "emulator"):
        raise WaveccError("backend %r: give auto, hip or emulator (WAVECC_BACKEND or options.wavecc_backend)" % b)
    return b


def _run(c, bufs, options):
    """Run on HIP when a GPU is there (auto, hip), else on the emulator (auto, emulator); the backend used."""
    want = _backend_wanted(options)
    if want == "hip" or (want == "auto" and not _no_device):
        try:
            c.run(bufs, _lib.WAVECC_BACKEND_HIP)
            return "hip"
        except _lib.NoDeviceError:
            if want == "hip":
                raise
            _no_device.append(True)
    c.run(bufs, _lib.WAVECC_BACKEND_EMULATOR)
    return "emulator"


def wavecc_executable():
    """The wavecc command (for profile): $WAVECC_EXE, make install's BINDIR, the source tree's, then PATH."""
    cands = [os.environ.get("WAVECC_EXE")]
    try:
        from . import _config
        cands.append(os.path.join(getattr(_config, "BINDIR", ""), "wavecc"))
    except ImportError:
        pass
    here = os.path.dirname(os.path.abspath(__file__))
    if os.environ.get("WAVECC_BUILD"):
        cands.append(os.path.join(os.environ["WAVECC_BUILD"], "wavecc"))
    cands += [os.path.join(here, "..", "..", "build", "wavecc"), shutil.which("wavecc")]
    for p in cands:
        if p and os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    raise WaveccError("the wavecc command was not found (make install puts it in PREFIX/bin; or set WAVECC_EXE)")


def wave_compile(options, kernel, schedule=None):
    """Trace, validate and compile kernel under options (Wave's wave_compile). A manual schedule (Wave's
    wave_schedule function, SchedulingType.MANUAL) orders the same operations differently: wavecc does not apply
    it and schedules the kernel itself (the results are the same), with a Python warning saying so."""
    if not isinstance(kernel, LaunchableWave):
        raise TypeError("wave_compile(options, kernel): kernel must be a @tkw.wave function, got %r" % (kernel,))
    name = getattr(options.schedule, "name", options.schedule)
    if schedule is not None or str(name).upper() == "MANUAL":
        import warnings
        warnings.warn("wavecc: kernel %s: Wave's manual schedule is not applied; wavecc schedules the kernel "
                      "itself (the same results)" % kernel.name, stacklevel=2)
    _check_options(options, kernel)
    k = WaveKernel(options, kernel)
    # Wave prints (or writes) its MLIR; wavecc has none, and prints the annotated assembly in its place
    if options.print_mlir or options.print_mlir_file:
        if options.print_mlir_file:
            _write(options.print_mlir_file, k.asm.encode())
        else:
            print(k.asm)
    return k


# WaveCompileOptions that edit Wave's MLIR: wavecc compiles the traced graph and has no MLIR to edit, and an edit
# may change what the kernel computes, so they are refused
_MLIR_EDITS = ("override_mlir", "edit_ir_before", "edit_ir_after", "edit_ir_before_all", "edit_ir_after_all")


def _check_options(options, kernel):
    for f in _MLIR_EDITS:
        if getattr(options, f, None):
            fail("kernel %s: options.%s edits Wave's MLIR; wavecc compiles the traced graph (no MLIR) and cannot "
                 "apply it: leave it unset" % (kernel.name, f), kernel.loc)
    if options.postprocess:
        import warnings
        warnings.warn("wavecc: kernel %s: options.postprocess is an MLIR transform script (Wave's loop unrolling); "
                      "wavecc has no MLIR and does not apply it (the kernel computes the same)" % kernel.name,
                      stacklevel=3)
    if str(options.codeobj) not in ("5", "None"):
        fail("kernel %s: options.codeobj=%r: wavecc emits code object version 5 only" % (kernel.name, options.codeobj),
             kernel.loc)
