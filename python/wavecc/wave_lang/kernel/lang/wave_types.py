"""Wave's wave_lang.kernel.lang.wave_types: Memory, Register, IndexMapping, SymbolBind."""
from ...._types import Memory, Register, IndexMapping, SymbolBind, AddressSpace, KernelBufferUsage, \
    MemoryLayout  # noqa: F401

__all__ = ["IndexMapping", "Memory", "Register"]
