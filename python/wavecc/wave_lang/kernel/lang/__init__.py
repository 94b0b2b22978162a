"""Wave's wave_lang.kernel.lang (tkl): sym, Memory, Register, the dtypes, global symbols."""
from ...._dtype import DataType, bf16, bool, i1, i4, i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64, \
    f8e5m2, f8e5m2fnuz, f8e4m3fn, f8e4m3fnuz, f8e8m0fnu, f6e2m3fn, f6e3m2fn, f4e2m1fn, index  # noqa: F401
from ....indexing import IndexExpr, IndexSymbol, sym  # noqa: F401
from ...._types import IndexMapping, Memory, Register, SymbolBind, AddressSpace, MemoryLayout  # noqa: F401
from . import global_symbols  # noqa: F401
