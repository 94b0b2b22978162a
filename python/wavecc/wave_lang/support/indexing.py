"""Wave's wave_lang.support.indexing: index symbols (SymPy) and sym, as kernel._support.indexing."""
from ...indexing import *  # noqa: F401,F403
from ...indexing import IndexSymbol, IndexExpr, index_symbol, index_expr, sym, xor  # noqa: F401



class IndexSequence:
    """Wave's (start, size, stride) of an index along a dim (its index analysis'; wavecc computes its own, this is
    for the names Wave's tests import)."""

    def __init__(self, start, size, stride=1):
        self.start, self.size, self.stride = start, size, stride

    def has(self, symbol):
        import sympy
        return any(sympy.sympify(x).has(symbol) for x in (self.start, self.size, self.stride))

    def subs(self, mapping, simultaneous=False):
        import sympy

        def one(x):
            return sympy.sympify(x).subs(mapping, simultaneous=simultaneous) if isinstance(x, sympy.Basic) else x
        return IndexSequence(one(self.start), one(self.size), one(self.stride))

    def __eq__(self, other):
        return isinstance(other, IndexSequence) and (self.start, self.size, self.stride) == \
            (other.start, other.size, other.stride)

    def __hash__(self):
        return hash((self.start, self.size, self.stride))

    def __repr__(self):
        return "IndexSequence(%s, %s, %s)" % (self.start, self.size, self.stride)
