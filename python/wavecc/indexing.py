"""indexing.py — Wave's index symbols: SymPy symbols assumed non-negative integers.

`sym.M` is `index_symbol("M")`; the hardware symbols (`$T0`, `$WG0`, ...) are
the names docs/kernel-format.md gives them.
"""
import sympy

IndexSymbol = sympy.Symbol
IndexExpr = sympy.Expr

MMA_ACC_SYMBOL_NAME = "$MMA_ACC"
THREAD_SYMBOL_NAMES = ("$T0", "$T1", "$T2")
WORKGROUP_SYMBOL_NAMES = ("$WG0", "$WG1", "$WG2")
DEVICE_SYMBOL_NAMES = ("$DD0", "$DD1", "$DD2")
GPR_SYMBOL_NAME = "$GPR_NUM"


def index_symbol(name):
    """A named symbol, assumed to be a non-negative integer (as in Wave)."""
    return sympy.Symbol(name, integer=True, nonnegative=True)


def index_expr(value):
    return sympy.sympify(value)


class _IndexSymbolExpando:
    def __getattr__(self, n):
        if n.startswith("__"):
            raise AttributeError(n)
        return index_symbol(n)


sym = _IndexSymbolExpando()


class xor(sympy.Function):
    """Wave's xor of two index expressions (printed `xor(a, b)`)."""


__all__ = ["IndexSymbol", "IndexExpr", "index_symbol", "index_expr", "sym", "xor",
           "MMA_ACC_SYMBOL_NAME", "THREAD_SYMBOL_NAMES", "WORKGROUP_SYMBOL_NAMES",
           "DEVICE_SYMBOL_NAMES", "GPR_SYMBOL_NAME"]
