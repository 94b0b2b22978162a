"""Wave's wave_lang.support.indexing: index symbols (SymPy) and sym, as kernel._support.indexing."""
from ...indexing import *  # noqa: F401,F403
from ...indexing import IndexSymbol, IndexExpr, index_symbol, index_expr, sym, xor  # noqa: F401
