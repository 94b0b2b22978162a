"""_types.py — Wave's kernel types: Memory, Register, IndexMapping, SymbolBind.

`Memory[M, K, ADDRESS_SPACE, f16]` and `Register[M, N, f32]` are classes made
by subscripting (as in Wave): they carry symbolic_shape, address_space and
dtype. Calling a Register class during a trace records a `register` op
(`Register[M, N, f32](0.0)`); an integer SymPy value (`THREAD_0`) becomes a
`scalar` of that expression broadcast to the shape. IndexMapping keeps
Wave's iterator and dynamic-value symbols (`$index0`, `$dynamic_val0`).
"""
import enum

import sympy

from ._dtype import DataType
from .indexing import IndexExpr, index_symbol


class AddressSpace:
    REGISTER = "register"
    SHARED_MEMORY = "shared"
    GLOBAL_MEMORY = "global"


class KernelBufferUsage(enum.Enum):
    NONE = 0
    INPUT = 1
    OUTPUT = 2


class MemoryLayout:
    """Wave's physical layout of a Memory: not in wavecc-kernel/1 (accepted, rejected at emission)."""

    def __init__(self, shape=None, **kw):
        self.shape = shape


def _shape(items):
    if len(items) == 1 and isinstance(items[0], tuple):
        items = items[0]
    return tuple(sympy.Integer(s) if isinstance(s, int) else s for s in items)


class _Typed(type):
    def __repr__(cls):
        shape = ", ".join(str(s) for s in getattr(cls, "symbolic_shape", ()))
        return "%s[%s, %s]" % (cls.__name__, shape, getattr(cls, "dtype", "?"))


class Memory(metaclass=_Typed):
    """Wave's Memory[shape..., address_space, dtype] kernel argument type."""

    symbolic_shape = ()
    address_space = None
    dtype = None
    physical_layout = None

    def __init__(self):
        raise NotImplementedError("Memory types are not directly instantiated.")

    def __class_getitem__(cls, items):
        items = list(items) if isinstance(items, tuple) else [items]
        if items and isinstance(items[-1], KernelBufferUsage):
            items.pop()
        layout = None
        if items and isinstance(items[-1], MemoryLayout):
            layout = items.pop()
        if len(items) < 3:
            raise TypeError("Memory[shape..., address_space, dtype]: expected at least 3 arguments, got %r" % items)
        dtype = items.pop()
        space = items.pop()
        if not isinstance(dtype, DataType):
            raise TypeError("Expected dtype to be a DataType, got %r" % (dtype,))
        shape = _shape(items)
        if not shape:
            raise TypeError("Memory needs at least one dim")
        return type("Memory", (Memory,), {"symbolic_shape": shape, "address_space": space, "dtype": dtype,
                                          "rank": len(shape), "physical_layout": layout})


class Register(metaclass=_Typed):
    """Wave's Register[shape..., dtype]; Register[...](value) records a `register` op."""

    symbolic_shape = ()
    dtype = None

    def __new__(cls, value):
        from . import _ops
        return _ops.register(cls.symbolic_shape, cls.dtype, value)

    def __class_getitem__(cls, items):
        items = list(items) if isinstance(items, tuple) else [items]
        if len(items) < 1:
            raise TypeError("Register[shape..., dtype]")
        dtype = items.pop()
        if not isinstance(dtype, DataType):
            raise TypeError("Expected dtype to be a DataType, got %r" % (dtype,))
        shape = _shape(items)
        return type("Register", (Register,), {"symbolic_shape": shape, "dtype": dtype, "rank": len(shape)})


class SymbolBind:
    """Wave's SymbolBind[dtype]: not in wavecc-kernel/1 (rejected when traced)."""

    dtype = None

    def __class_getitem__(cls, dt):
        return type("SymbolBind", (SymbolBind,), {"dtype": dt})


class IndexMapping:
    """Wave's IndexMapping(num_iterators, inputs, outputs, dynamic_val_mappings)."""

    def __init__(self, num_iterators, inputs, outputs, dynamic_val_mappings=()):
        self.iters = {self.iterator(i): i for i in range(num_iterators)}
        self.input_mapping = dict(inputs)
        self.output_mapping = dict(outputs)
        if isinstance(dynamic_val_mappings, dict):
            dynamic_val_mappings = (dynamic_val_mappings,) if dynamic_val_mappings else ()
        self.dynamic_val_mappings = tuple(dynamic_val_mappings)

    @property
    def num_iterators(self):
        return len(self.iters)

    @property
    def input_shape(self):
        return tuple(self.input_mapping.keys())

    @property
    def output_shape(self):
        return tuple(self.output_mapping.keys())

    @staticmethod
    def iterator(index):
        return index_symbol("$index%d" % index)

    @staticmethod
    def dynamic_val(index):
        return index_symbol("$dynamic_val%d" % index)

    def __repr__(self):
        return "IndexMapping(inputs=%r, outputs=%r)" % (self.input_mapping, self.output_mapping)


__all__ = ["Memory", "Register", "IndexMapping", "SymbolBind", "IndexExpr"]
