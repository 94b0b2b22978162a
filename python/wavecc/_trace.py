"""_trace.py — tracing a Wave kernel function into a wavecc-kernel/1 graph.

Algorithm. The kernel function runs once on proxy values: each Memory
parameter is a MemArg, each scalar parameter a Reg naming the argument. Every
tkw op called during the run appends a Node to the body on top of the trace's
body stack and returns a Reg (a proxy of the op's result: a reference, a
symbolic shape and a dtype). Python operators on Regs (`+ - * / // % & | ~`,
unary minus, comparisons) are ops too; Python numbers and SymPy expressions
meeting a Reg become `scalar` nodes. `iterate` and `conditional` are
decorators: they push a fresh body, call the decorated function on Regs
standing for the iteration / else values (named after its parameters), close
the body with an `output` node and append the region node to the outer body;
with several results the region returns a Results object whose items (index
or unpacking) are `get_result` nodes. Each node keeps the Python file and line
of the user's call (the first stack frame outside this package).

The shapes and dtypes of results follow docs/kernel-format.md's inference
rules; they are needed for Python numbers, reductions, iterate arguments and
error messages, and are not emitted (wavecc infers them itself).

Emission (emit_kernel) turns the recorded graph plus the compile options
(symbol values, address spaces, dynamic symbols, options) into the JSON
document, and remembers for each JSON path (`graph[3].body[1]`) its node so
that library diagnostics can name the Python line.
"""
import inspect
import math
import os
import sys

import sympy

from ._lib import WaveccError
from ._dtype import DataType, i1

_PKG_DIR = os.path.dirname(os.path.abspath(__file__))
# the kernel templates are Wave programs: their lines are the ops' locations
_TEMPLATES_DIR = os.path.join(_PKG_DIR, "wave_lang", "kernel", "wave", "templates")


class TraceError(WaveccError):
    """A kernel that cannot be traced or emitted; names the Python line."""


# ---- source locations ----

def user_location():
    """(file, line, function) of the innermost frame outside this package."""
    f = sys._getframe(1)
    while f is not None:
        path = os.path.abspath(f.f_code.co_filename)
        if not path.startswith(_PKG_DIR) or path.startswith(_TEMPLATES_DIR):
            break
        f = f.f_back
    if f is None:
        return None
    return (f.f_code.co_filename, f.f_lineno, f.f_code.co_name)


def format_location(loc):
    return "%s:%d" % (loc[0], loc[1]) if loc else "<unknown>"


def fail(msg, loc=None):
    raise TraceError("%s: %s" % (format_location(loc or user_location()), msg))


# ---- expressions ----

def is_symbolic(x):
    return isinstance(x, sympy.Basic)


def expr_json(e, what="expression"):
    """An expression field: a JSON integer where it is one, else SymPy's printed form."""
    if isinstance(e, bool):
        return "True" if e else "False"
    if isinstance(e, int):
        return e
    if isinstance(e, float):
        if e.is_integer():
            return int(e)
        fail("%s %r is not an integer" % (what, e))
    if isinstance(e, sympy.Basic):
        if e.is_Integer:
            return int(e)
        if e.is_Float and float(e).is_integer():
            return int(e)
        if e is sympy.true or e is sympy.false:
            return str(e)
        return str(e)
    if isinstance(e, str):
        return e
    fail("%s %r is neither an integer nor a SymPy expression" % (what, e))


def dim_name(d):
    """A dim of a shape: a symbol's name, or an expression of one dim symbol (`K/2`)."""
    if isinstance(d, sympy.Symbol):
        return d.name
    if isinstance(d, str):
        return d
    if isinstance(d, sympy.Basic):
        return str(d)
    fail("a dim must be a symbol, got %r" % (d,))


def dims_json(shape):
    return [dim_name(d) for d in shape]


def same_dim(a, b):
    return dim_name(a) == dim_name(b)


def dim_set(shape):
    return {dim_name(d) for d in shape}


# ---- the graph ----

class Ref:
    """Something operands can name: an iteration argument, an else value."""

    def __init__(self, name):
        self.name = name


class Node:
    def __init__(self, name, op, fields, loc, types):
        self.name = name
        self.op = op
        self.fields = fields      # op fields: values are Reg, MemArg, lists, plain JSON
        self.body = None          # list of Node for iterate / conditional
        self.loc = loc
        self.types = types        # [(shape, dtype)], one per result


class Trace:
    """The state of one kernel trace: unique names and the body stack."""

    def __init__(self, fn_name):
        self.fn_name = fn_name
        self.names = set()
        self.root = []
        self.stack = [self.root]
        self.args = []
        self.loop_axes = []     # the axes of the iterates being traced, innermost last
        self.unit_tiles = []    # (axis, loc): reads that index a loop's axis by its counter need its tile to be 1
        self.debug_logs = []    # tkw.debug_log's hidden memories: {"name", "arg", "printer", "extra", ...}
        self.debug_handlers = []
        self.symbol_scalars = set()  # scalar arguments a loop's start made dynamic symbols (tkw.iterate)

    def unique(self, base):
        base = base if base else "v"
        name, i = base, 0
        while name in self.names:
            i += 1
            name = "%s_%d" % (base, i)
        self.names.add(name)
        return name


_current = []


def current():
    if not _current:
        fail("tkw ops can only be called while a @tkw.wave kernel is traced (by wave_compile)")
    return _current[-1]


def record(op, fields, types, base=None, loc=None):
    """Append a node to the current body; its result proxy (None without a result)."""
    tr = current()
    node = Node(tr.unique(base or op), op, fields,
                loc or user_location(), types)
    tr.stack[-1].append(node)
    if not types:
        return None
    if len(types) == 1:
        return Reg(node, types[0][0], types[0][1])
    return Results(node, types)


# ---- proxies ----

class RegType:
    """What Wave code reads off a value's .type."""

    def __init__(self, shape, dtype):
        self.symbolic_shape = tuple(shape)
        self.dtype = dtype


def _binary(op, lhs, rhs, compare=False, loc=None):
    loc = loc or user_location()
    a = coerce(lhs, rhs, loc)
    b = coerce(rhs, a, loc)
    if a.dtype != b.dtype:
        fail("%s: operand dtypes differ: %s and %s (cast one with tkw.cast)" % (op, a.dtype, b.dtype), loc)
    sa, sb = dim_set(a.shape), dim_set(b.shape)
    if sb <= sa:
        shape = a.shape
    elif sa <= sb:
        shape = b.shape
    else:
        fail("%s: operand shapes %s and %s do not broadcast (one's dims must contain the other's; "
             "use tkw.broadcast)" % (op, dims_json(a.shape), dims_json(b.shape)), loc)
    return record(op, {"lhs": a, "rhs": b}, [(shape, i1 if compare else a.dtype)], loc=loc)


def _unary(op, x, loc=None):
    loc = loc or user_location()
    x = as_reg(x, op, loc)
    return record(op, {"arg": x}, [(x.shape, x.dtype)], loc=loc)


def as_reg(x, what, loc=None):
    if isinstance(x, Reg):
        return x
    if isinstance(x, Results):
        fail("%s: %s has %d results: take one (r[i] or unpacking)" % (what, x.node.name, len(x.types)), loc)
    fail("%s: expected a traced value (a Register), got %r" % (what, x), loc)


def coerce(x, like, loc):
    """A Reg for x: itself, or a `scalar` node for a Python number or a SymPy expression."""
    if isinstance(x, Reg):
        return x
    if isinstance(x, Results):
        as_reg(x, "operand", loc)
    if not isinstance(like, Reg):
        fail("an operation needs at least one traced value, got %r and %r" % (x, like), loc)
    if isinstance(x, (bool, int, float)) or (is_symbolic(x) and x.is_number):
        v = x if isinstance(x, (bool, int, float)) else (int(x) if x.is_Integer else float(x))
        if isinstance(v, bool):
            v = int(v)
        if like.dtype.is_int_asm() and isinstance(v, float) and not v.is_integer():
            fail("the number %r meets an integer value (%s)" % (v, like.dtype), loc)
        if like.dtype.is_int_asm():
            v = int(v)
        elif isinstance(v, int):
            v = float(v)
        return record("scalar", {"value": v, "dtype": like.dtype}, [((), like.dtype)], loc=loc)
    if is_symbolic(x):
        if not like.dtype.is_int_asm():
            fail("the expression %s meets a %s value: only integer values take expressions" % (x, like.dtype), loc)
        return record("scalar", {"value": str(x), "dtype": like.dtype}, [((), like.dtype)], loc=loc)
    fail("cannot use %r in a kernel expression" % (x,), loc)


class Reg:
    """A traced value (Wave's Register proxy)."""

    __array_priority__ = 1000  # numpy scalars defer to our reflected operators

    def __init__(self, ref, shape, dtype):
        self.ref = ref
        self.shape = tuple(shape)
        self.dtype = dtype

    @property
    def node(self):
        return self.ref

    @property
    def name(self):
        return self.ref.name

    @property
    def type(self):
        return RegType(self.shape, self.dtype)

    def __repr__(self):
        return "<traced %s: %s%s>" % (self.ref.name, self.dtype, dims_json(self.shape))

    def __bool__(self):
        fail("a traced value has no truth value at trace time: use tkw.select, tkw.conditional or apply_expr")

    __hash__ = object.__hash__

    def __add__(self, o): return _binary("add", self, o)
    def __radd__(self, o): return _binary("add", o, self)
    def __sub__(self, o): return _binary("sub", self, o)
    def __rsub__(self, o): return _binary("sub", o, self)
    def __mul__(self, o): return _binary("mul", self, o)
    def __rmul__(self, o): return _binary("mul", o, self)
    def __truediv__(self, o): return _binary("truediv", self, o)
    def __rtruediv__(self, o): return _binary("truediv", o, self)
    def __floordiv__(self, o): return _binary("floordiv", self, o)
    def __rfloordiv__(self, o): return _binary("floordiv", o, self)
    def __mod__(self, o): return _binary("mod", self, o)
    def __rmod__(self, o): return _binary("mod", o, self)
    def __and__(self, o): return _binary("and_", self, o)
    def __rand__(self, o): return _binary("and_", o, self)
    def __or__(self, o): return _binary("or_", self, o)
    def __ror__(self, o): return _binary("or_", o, self)
    def __neg__(self): return _unary("neg", self)
    def __invert__(self): return _unary("invert", self)
    def __lt__(self, o): return _binary("lt", self, o, True)
    def __le__(self, o): return _binary("le", self, o, True)
    def __gt__(self, o): return _binary("gt", self, o, True)
    def __ge__(self, o): return _binary("ge", self, o, True)
    def __eq__(self, o): return _binary("eq", self, o, True)
    def __ne__(self, o): return _binary("ne", self, o, True)

    def __iter__(self):
        fail("%s has one result: it cannot be unpacked" % self.ref.name)

    def __getitem__(self, i):
        """value[i]: Wave's element i of a register (wave_sim_test's `tkw.read(b)[0]`): the format's extract."""
        if not isinstance(i, int) or isinstance(i, bool):
            fail("%s[%r]: a traced value takes one integer index (tkw.extract_slice for more)" % (self.ref.name, i))
        from ._ops import extract
        return extract(self, [i])


class Results:
    """The results of an iterate or conditional with several values."""

    def __init__(self, node, types):
        self.node = node
        self.types = types
        self._items = {}

    def __len__(self):
        return len(self.types)

    def __getitem__(self, i):
        if not isinstance(i, int) or not -len(self.types) <= i < len(self.types):
            fail("%s has %d results; index %r" % (self.node.name, len(self.types), i))
        i %= len(self.types)
        if i not in self._items:
            shape, dtype = self.types[i]
            self._items[i] = record("get_result", {"value": Reg(self.node, (), None), "res_idx": i},
                                    [(shape, dtype)])
        return self._items[i]

    def __iter__(self):
        return iter([self.__getitem__(i) for i in range(len(self.types))])

    def __repr__(self):
        return "<traced %s: %d results>" % (self.node.name, len(self.types))


class MemArg:
    """A Memory parameter of the kernel."""

    def __init__(self, name, mtype, loc):
        self.name = name
        self.mtype = mtype
        self.loc = loc

    @property
    def shape(self):
        return tuple(self.mtype.symbolic_shape)

    @property
    def dtype(self):
        return self.mtype.dtype

    @property
    def type(self):
        return self.mtype

    def __repr__(self):
        return "<memory %s: %s%s>" % (self.name, self.dtype, dims_json(self.shape))


class ScalarArg(Ref):
    """A scalar parameter of the kernel (its Reg's reference)."""

    def __init__(self, name, dtype, loc):
        Ref.__init__(self, name)
        self.dtype = dtype
        self.loc = loc


class SymbolArg:
    """A SymbolBind[dtype] parameter of the kernel (Wave's extend attention's MAX_EXTEND_SEQ_LEN): a dynamic
    symbol of the parameter's name whose value a call gives, as an argument, in its place."""

    def __init__(self, name, dtype, loc):
        self.name = name
        self.dtype = dtype
        self.loc = loc

    @property
    def ref(self):
        return self

    def __repr__(self):
        return "<symbol %s>" % self.name


class MemValue:
    """A memory value made by a node (tkw.allocate: a workgroup buffer in shared memory)."""

    def __init__(self, node, shape, dtype):
        self.node = node
        self.name = node.name
        self._shape = tuple(shape)
        self._dtype = dtype

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def type(self):
        return RegType(self._shape, self._dtype)

    def __repr__(self):
        return "<allocation %s: %s%s>" % (self.name, self.dtype, dims_json(self.shape))


def as_mem(x, what, loc):
    if isinstance(x, (MemArg, MemValue)):
        return x
    fail("%s: expected a Memory argument of the kernel, got %r" % (what, x), loc)


# ---- regions ----

def _outputs(ret, what, loc):
    if ret is None:
        return []
    if isinstance(ret, Reg):
        return [ret]
    if isinstance(ret, Results):
        return [ret[i] for i in range(len(ret))]
    if isinstance(ret, (tuple, list)):
        return [as_reg(r, what + " result", loc) for r in ret]
    fail("%s: the body returned %r, not traced values" % (what, ret), loc)


def region(op, f, inits, fields, loc):
    """Trace f as the body of an iterate / conditional node with iteration values like inits."""
    tr = current()
    try:
        params = list(inspect.signature(f).parameters)
    except (TypeError, ValueError):
        params = []
    if len(params) != len(inits):
        fail("%s %s: the function takes %d arguments but %d %s given" % (
            op, f.__name__, len(params), len(inits),
            "init_args are" if op == "iterate" else "else_return values are"), loc)
    name = tr.unique(f.__name__ if f.__name__ != "<lambda>" else op)
    refs = [Ref(tr.unique(p)) for p in params]
    regs = [Reg(r, v.shape, v.dtype) for r, v in zip(refs, inits)]
    body = []
    tr.stack.append(body)
    tr.loop_axes.append(fields.get("axis") if op == "iterate" else None)
    try:
        ret = f(*regs)
        outs = _outputs(ret, "%s %s" % (op, name), loc)
        if inits and len(outs) != len(inits):
            fail("%s %s returns %d values for %d %s" % (op, name, len(outs), len(inits),
                 "init_args" if op == "iterate" else "else_return values"), loc)
        for o, v in zip(outs, inits):
            if o.dtype != v.dtype or dim_set(o.shape) != dim_set(v.shape):
                fail("%s %s returns %s%s where %s%s was given (%s)" % (
                    op, name, o.dtype, dims_json(o.shape), v.dtype, dims_json(v.shape), v.name), loc)
        node_out = Node(tr.unique("output"), "output", {"values": outs}, loc, [])
        body.append(node_out)
    finally:
        tr.stack.pop()
        tr.loop_axes.pop()
    f2 = dict(fields)
    if op == "iterate":
        f2["init_args"] = list(inits)
        f2["iter_args"] = refs
    elif inits:
        f2["else_return"] = list(inits)
        f2["iter_args"] = refs
    node = Node(name, op, f2, loc, [(v.shape, v.dtype) for v in inits])
    node.body = body
    tr.stack[-1].append(node)
    if not inits:
        return None
    if len(inits) == 1:
        return Reg(node, inits[0].shape, inits[0].dtype)
    return Results(node, node.types)


# ---- emission ----

def _field_json(v, path_fail):
    if isinstance(v, (Reg, MemArg, MemValue)):
        return v.ref.name if isinstance(v, Reg) else v.name
    if isinstance(v, Ref):
        return v.name
    if isinstance(v, DataType):
        return v.format_name
    if isinstance(v, (list, tuple)):
        return [_field_json(x, path_fail) for x in v]
    if isinstance(v, dict):
        return {k: _field_json(x, path_fail) for k, x in v.items()}
    if isinstance(v, sympy.Basic):
        return expr_json(v)
    if isinstance(v, float) and not math.isfinite(v):
        path_fail("the value %r is not a finite number (JSON has none)" % v)
    return v


def emit_body(nodes, prefix, paths):
    out = []
    for i, n in enumerate(nodes):
        path = "%s[%d]" % (prefix, i)
        paths[path] = n

        def path_fail(msg, n=n):
            fail("%s '%s': %s" % (n.op, n.name, msg), n.loc)

        d = {"name": n.name, "op": n.op}
        for k, v in n.fields.items():
            d[k] = _field_json(v, path_fail)
        if n.loc and n.loc[1]:
            d["loc"] = {"file": n.loc[0], "line": n.loc[1]}
        if n.body is not None:
            d["body"] = emit_body(n.body, path + ".body", paths)
        out.append(d)
    return out
