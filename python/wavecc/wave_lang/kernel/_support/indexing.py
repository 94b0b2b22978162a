"""Wave's wave_lang.kernel._support.indexing: index symbols (SymPy) and sym."""
from ....indexing import *  # noqa: F401,F403
from ....indexing import IndexSymbol, IndexExpr, index_symbol, index_expr, sym, xor  # noqa: F401
