"""Wave's wave_lang.kernel.wave.symbolic_constraints."""
from ...._constraints import SymbolicAlias  # noqa: F401
