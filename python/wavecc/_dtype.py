"""_dtype.py — Wave's DataType and the format's dtype names.

A DataType carries Wave's name (`f8E4M3FNUZ`, `bool`) and the name
docs/kernel-format.md gives it (`f8e4m3fnuz`, `i1`); `index` is i64.
"""

_FORMAT = {"bool": "i1", "index": "i64"}


class DataType:
    def __init__(self, name, ir_type_asm=None):
        self._name = name
        self._ir_type_asm = ir_type_asm or name

    def ir_type_asm(self):
        return self._ir_type_asm

    @property
    def format_name(self):
        """The dtype's name in wavecc-kernel/1."""
        return _FORMAT.get(self._name, self._name.lower())

    def __str__(self):
        return self._name

    def __repr__(self):
        return "DataType(%s)" % self._ir_type_asm

    def __eq__(self, other):
        return isinstance(other, DataType) and self.ir_type_asm() == other.ir_type_asm()

    def __hash__(self):
        return hash(self.ir_type_asm())

    def is_int_asm(self):
        return self._name in ("i1", "bool", "i4", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64")

    def is_float_asm(self):
        return self._name.startswith(("f", "bf"))

    def is_index_asm(self):
        return self._name == "index"

    def bitwidth(self):
        if self._name == "bool":
            return 1
        if self._name == "index":
            return 64
        if "f4" in self._name:
            return 4
        if "f6" in self._name:
            return 6
        if "f8" in self._name:
            return 8
        if self._name == "bf16":
            return 16
        return int(self._name[1:])

    @property
    def dtype(self):
        return self

    @property
    def symbolic_shape(self):
        return ()


bf16 = DataType("bf16")
bool = DataType("bool", "i1")
i1 = bool
i4 = DataType("i4")
i8 = DataType("i8")
i16 = DataType("i16")
i32 = DataType("i32")
i64 = DataType("i64")
u8 = DataType("u8")
u16 = DataType("u16")
u32 = DataType("u32")
u64 = DataType("u64")
f16 = DataType("f16")
f32 = DataType("f32")
f64 = DataType("f64")
f8e5m2 = DataType("f8E5M2")
f8e5m2fnuz = DataType("f8E5M2FNUZ")
f8e4m3fn = DataType("f8E4M3FN")
f8e4m3fnuz = DataType("f8E4M3FNUZ")
f8e8m0fnu = DataType("f8E8M0FNU")
f6e2m3fn = DataType("f6E2M3FN")
f6e3m2fn = DataType("f6E3M2FN")  # OCP MX FP6 E3M2 (the format has it; Wave names only E2M3)
f4e2m1fn = DataType("f4E2M1FN")
index = DataType("index")

# Wave's alternative spellings
f8E5M2, f8E5M2FNUZ, f8E4M3FN, f8E4M3FNUZ = f8e5m2, f8e5m2fnuz, f8e4m3fn, f8e4m3fnuz
f8E8M0FNU, f6E2M3FN, f6E3M2FN, f4E2M1FN = f8e8m0fnu, f6e2m3fn, f6e3m2fn, f4e2m1fn

FORMAT_DTYPES = ("f16 bf16 f32 f64 i1 i8 i16 i32 i64 u8 u16 u32 u64 "
                 "f8e4m3fnuz f8e5m2fnuz f8e4m3fn f8e5m2 f4e2m1fn f6e2m3fn f6e3m2fn f8e8m0fnu").split()
# OCP MX element types (scaled_mma's operands) and storage bits per element in
# wavecc (f4 packed two per byte; f6 one per byte and never bitcast)
MX_ELEMENT_DTYPES = ("f8e4m3fn", "f8e5m2", "f6e2m3fn", "f6e3m2fn", "f4e2m1fn")


def storage_bits(d):
    """Bits of buffer storage per element (docs/kernel-format.md, "Element types")."""
    n = d.format_name
    return 4 if n == "f4e2m1fn" else 1 if n == "i1" else 8 if n.startswith("f6") else d.bitwidth()
