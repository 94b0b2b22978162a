"""Wave's wave_lang.kernel.wave.wave_sim: run a kernel function on whole arrays, on the host.

wave_sim(constraints)(func) returns a callable taking the kernel's arguments (numpy arrays, CPU torch tensors,
numbers) that traces func as @tkw.wave would and runs the graph on wavecc's reference interpreter
(docs/interpreter.md: tensor-level semantics, no distribution), writing the outputs into the arrays. Wave's
simulator gets no hyperparameters, so the symbols take values from the arrays' shapes; the distribution's own
symbols (tiles, elements per thread), which do not change the results, get stand-ins: a workgroup or tiling
constraint's tile the dim's extent, elements per thread and vector shapes dropped, address spaces global. A float
array of another float dtype than its memory's is converted in and back (Wave's torch ops would keep it).
"""
import json

import sympy

from ...._compile import LaunchableWave, WaveCompileOptions, emit_kernel, numpy_dtype, _as_array, _space_name
from ...._constraints import HardwareConstraint, TilingConstraint, WaveConstraint, WorkgroupConstraint
from ...._lib import Kernel, WaveccError
from ...._trace import MemArg, SymbolArg, dim_name


def _strip(nodes):
    for n in nodes:
        n.pop("elements_per_thread", None)
        if "body" in n:
            _strip(n["body"])


class _Simulated:
    def __init__(self, constraints, fn):
        self.kernel = LaunchableWave(constraints, fn.__name__, fn)
        self.__name__ = fn.__name__

    def __call__(self, *args):
        tr = self.kernel.trace()
        if len(args) != len(tr.args):
            raise TypeError("%s takes %d arguments, %d given" % (self.__name__, len(tr.args), len(args)))
        subs, arrays, scalars = {}, {}, {}
        for a, x in zip(tr.args, args):
            if isinstance(a, MemArg):
                arr = _as_array(x, a.name)
                arrays[a.name] = (arr, x)
                for d, n in zip(a.shape, arr.shape):
                    if isinstance(d, sympy.Symbol):
                        subs.setdefault(d.name, n)
                sp = a.mtype.address_space
                if _space_name(sp) is None:
                    subs.setdefault(("space", dim_name(sp)), "global")
            elif isinstance(a, SymbolArg):
                subs[a.name] = int(x)
            else:
                scalars[a.ref.name] = x
        # the distribution's symbols: tiles cover the whole dim
        for c in self.kernel.constraints:
            if isinstance(c, (WorkgroupConstraint, TilingConstraint)) and isinstance(c.tile_size, sympy.Symbol):
                subs.setdefault(c.tile_size.name, subs.get(dim_name(c.dim), 1))
        opts = WaveCompileOptions(subs={**{sympy.Symbol(k, integer=True, nonnegative=True): v
                                           for k, v in subs.items() if isinstance(k, str)},
                                        **{sympy.Symbol(k[1]): _GLOBAL for k in subs if isinstance(k, tuple)}})
        doc, _ = emit_kernel(self.kernel, opts)
        _strip(doc["graph"])
        for c in doc["constraints"]:
            if c.get("kind") == "hardware":
                c.pop("vector_shapes", None)
        # wave constraints of a tile the dim's extent (the sim has one wave per dim)
        keep = []
        for c, obj in zip(doc["constraints"], [x for x in self.kernel.constraints if hasattr(x, "to_json")]):
            if isinstance(obj, WaveConstraint):
                continue
            keep.append(c)
        doc["constraints"] = keep
        try:
            k = Kernel(json.dumps(doc), "<wave_sim %s>" % self.__name__)
        except WaveccError as e:
            raise NotImplementedError("wave_sim %s: wavecc's interpreter cannot run this kernel without its "
                                      "hyperparameters: %s" % (self.__name__, e)) from e
        np = __import__("numpy")
        bufs, back = {}, []
        mem_dtypes = {a.name: numpy_dtype(a.dtype.format_name) for a in tr.args if isinstance(a, MemArg)}
        for name, (arr, orig) in arrays.items():
            buf = np.ascontiguousarray(arr)
            # Wave's simulator runs torch ops on the tensors given, whatever the memory's dtype (test_igemm_conv's
            # f32 tensors for f16 memories); wavecc's interpreter takes the memory's: a float array of another
            # float dtype is converted in and back (so an f16 mma sees f16-rounded operands)
            if buf.dtype != mem_dtypes[name] and buf.dtype.kind == "f" and mem_dtypes[name].kind == "f":
                buf = buf.astype(mem_dtypes[name])
            bufs[name] = buf
            back.append((arr, buf, orig))
        for d in tr.debug_logs:  # tkw.debug_log's memories: written, not returned (wave_sim takes no debug_logs)
            vals = {sympy.Symbol(k, integer=True, nonnegative=True): v for k, v in subs.items() if isinstance(k, str)}
            vals.update((sympy.Symbol(dim_name(s_), integer=True, nonnegative=True), n) for s_, n in d["extra"])
            shape = [int(sympy.sympify(x).subs(vals)) for x in d["symbolic_shape"]]
            bufs[d["arg"].name] = np.zeros(shape, dtype=numpy_dtype(d["arg"].dtype.format_name))
        for name, v in scalars.items():
            a = [x for x in tr.args if not isinstance(x, (MemArg, SymbolArg)) and x.ref.name == name][0]
            bufs[name] = bytearray(np.array(v, dtype=numpy_dtype(a.dtype.format_name)).tobytes())
        k.interpret(bufs)
        for arr, buf, orig in back:
            if buf is not arr and arr.flags.writeable:
                arr[...] = buf.astype(arr.dtype) if buf.dtype != arr.dtype else buf
            if hasattr(orig, "copy_") and buf is not orig:  # a torch tensor given: write the result into it
                import torch
                orig.copy_(torch.from_numpy(np.asarray(buf)))


_GLOBAL = sympy.Symbol("$GLOBAL_ADDRESS_SPACE", integer=True, nonnegative=True)


def wave_sim(constraints=None):
    def decorator(fn):
        return _Simulated(constraints, fn)
    return decorator
