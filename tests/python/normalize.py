"""normalize.py — compare two wavecc-kernel/1 documents up to naming, order and spelling.

Two kernels are equivalent when, after normalisation, their arguments (in order),
constraints (as a set), options and graphs (as multisets of structural node keys)
are equal. Normalisation: every expression is parsed with SymPy, the symbol values
(with the run's -D overrides) substituted and simplified, so `floor(BLOCK_M / 2)`
and `BLOCK_M/2` agree when BLOCK_M is 64; mapping iterators, dynamic values and
apply_expr parameters are renamed by position; a node's key is its op and fields
with each operand replaced by the key of the node it names (an iteration or else
value by its position and nesting depth, an argument by its name), so node names
and the order of independent nodes do not matter; defaults are filled in
(hardware mma_type, workgroup primary, tiling start) and an mma's mma_type equal
to the hardware constraint's is dropped.
"""
import json
import re

import sympy

OPERANDS = {"lhs", "rhs", "acc", "lhs_scale", "rhs_scale", "arg", "register", "memory", "init", "cond", "if_true",
            "if_false", "init_args", "values", "else_return", "mapping_dynamic_vals", "value"}
EXPRS = {"tile", "iters", "start", "wave_id", "expr", "elements_per_thread", "offset", "size", "stride"}
_ID = re.compile(r"[A-Za-z_$][A-Za-z0-9_$.]*")
_FUNCS = {"floor", "ceiling", "Mod", "Max", "Min", "Piecewise", "Eq", "Ne", "And", "Or", "Not", "True", "False",
          "xor", "Lt", "Le", "Gt", "Ge"}


EFFECTS = {"write", "atomic_add", "set_symbol", "output", "iterate", "conditional"}


def _uses(n, acc):
    for f, v in n.items():
        if f in OPERANDS or f == "condition":
            for x in (v if isinstance(v, list) else [v]):
                if isinstance(x, str):
                    acc.add(x)
        if f == "body":
            for m in v:
                _uses(m, acc)


def live(nodes):
    """The nodes of a body without the dead ones (no effect and no user), as Wave's DCE leaves them."""
    nodes = list(nodes)
    while True:
        used = set()
        for n in nodes:
            _uses(n, used)
        keep = [n for n in nodes if n["op"] in EFFECTS or n["name"] in used]
        if len(keep) == len(nodes):
            return nodes
        nodes = keep


class Norm:
    def __init__(self, doc, defs):
        self.doc = doc
        vals = dict(doc.get("symbols", {}))
        vals.update(defs)
        self.subs = {}
        for _ in range(8):  # resolve chains of symbol values
            for k, v in vals.items():
                self.subs[self.sym(k)] = self.parse(v, resolve=False)
            self.subs = {k: sympy.sympify(v).subs(self.subs) for k, v in self.subs.items()}
        self.spaces = doc.get("address_spaces", {})
        hw = [c for c in doc["constraints"] if c["kind"] == "hardware"]
        self.mma_type = hw[0].get("mma_type", "F32_16x16x16_F16") if hw else None
        self.args = {a["name"] for a in doc["arguments"]}

    @staticmethod
    def sym(name):
        return sympy.Symbol(name.replace("$", "_D_").replace(".", "_P_"), integer=True)

    def parse(self, e, rename=None, resolve=True):
        if isinstance(e, bool):
            return sympy.true if e else sympy.false
        if isinstance(e, (int, float)):
            return sympy.nsimplify(e)
        loc = {}
        for m in _ID.finditer(e):
            n = m.group(0)
            if n in _FUNCS:
                continue
            target = (rename or {}).get(n, n)
            loc[n.replace("$", "_D_").replace(".", "_P_")] = self.sym(target)
        text = e.replace("$", "_D_")
        for n in sorted(loc, key=len, reverse=True):
            if "." in n:
                text = text.replace(n, n.replace(".", "_P_"))
        loc = {k.replace(".", "_P_"): v for k, v in loc.items()}
        loc["xor"] = sympy.Function("xor")
        x = sympy.sympify(text, locals=loc)
        if resolve:
            x = x.subs(self.subs)
        return x

    def expr(self, e, rename=None):
        x = self.parse(e, rename)
        try:
            x = sympy.simplify(x)
        except Exception:
            pass
        return str(x)

    def dim(self, d):
        return self.expr(d)

    def constraint(self, c):
        c = dict(c)
        if c["kind"] == "hardware":
            c.setdefault("mma_type", "F32_16x16x16_F16")
            c.setdefault("max_bits_per_load", 128)
            if "vector_shapes" in c:
                c["vector_shapes"] = {self.dim(k): self.expr(v) for k, v in c["vector_shapes"].items()}
        if c["kind"] == "workgroup":
            c.setdefault("primary", True)
        if c["kind"] == "tiling":
            c.setdefault("start", 0)
            c.setdefault("tile", 1)
        for k in list(c):
            if k in EXPRS:
                c[k] = self.expr(c[k])
            elif k in ("dim", "source", "target"):
                c[k] = self.dim(c[k])
        return json.dumps(c, sort_keys=True)

    def argument(self, a):
        a = dict(a)
        if "shape" in a:
            a["shape"] = [self.dim(d) for d in a["shape"]]
        if "address_space" in a:
            a["address_space"] = self.spaces.get(a["address_space"], a["address_space"])
        return json.dumps(a, sort_keys=True)

    def mapping(self, m):
        ren = {n: "$it%d" % i for i, n in enumerate(m["iterators"])}
        ren.update({n: "$dv%d" % i for i, n in enumerate(m.get("dynamic_values", []))})
        out = {"inputs": [(self.dim(k), self.expr(v, ren)) for k, v in m["inputs"].items()],
               "outputs": [(self.dim(k), self.expr(v, ren)) for k, v in m["outputs"].items()]}
        if "dynamic_val_mappings" in m:
            out["dvm"] = [sorted((self.dim(k), self.expr(v, ren)) for k, v in d.items())
                          for d in m["dynamic_val_mappings"]]
        return out

    def body(self, nodes, env, depth, outer=None):
        """The sorted keys of a body's nodes; env maps names to keys, outer resolves enclosing names."""
        by_name = {n["name"]: n for n in nodes}
        env = dict(env)
        keys = {}

        def key(name, seen=()):
            if name in env:
                return env[name]
            n = by_name.get(name)
            if n is None:
                if outer is not None:
                    return outer(name)
                return "arg:" + name if name in self.args else "?" + name
            if name in keys:
                return keys[name]
            if name in seen:
                return "cycle"
            k = self.node(n, lambda x: key(x, seen + (name,)), env, depth)
            keys[name] = k
            return k

        out = []
        for n in live(nodes):
            if n["op"] == "output" and not n.get("values"):
                continue
            out.append(key(n["name"]))
        return sorted(out)

    def node(self, n, ref, env, depth):
        d = {}
        for f, v in n.items():
            if f in ("name", "type", "index", "loc", "body", "iter_args", "implicit_captures"):
                continue
            if f == "value" and n["op"] != "get_result":
                d[f] = float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else self.expr(v)
            elif f == "condition":
                d[f] = ref(v) if (isinstance(v, str) and _ID.fullmatch(v) and
                                  (v in env or v in self.args or not self._is_symbol(v))) else self.expr(v)
            elif f in OPERANDS:
                d[f] = [ref(x) for x in v] if isinstance(v, list) else ref(v)
            elif f == "mapping":
                d[f] = self.mapping(v)
            elif f == "params":
                continue
            elif f == "expr" and n["op"] == "apply_expr":
                d[f] = self.expr(v, {p: "$p%d" % i for i, p in enumerate(n.get("params", []))})
            elif f in EXPRS:
                d[f] = [self.expr(x) for x in v] if isinstance(v, list) else self.expr(v)
            elif f in ("dim", "axis", "symbol"):
                d[f] = self.dim(v)
            elif f in ("shape", "target_shape"):
                d[f] = [self.dim(x) for x in v]
            else:
                d[f] = v
        if n["op"] == "mma" and d.get("mma_type") == self.mma_type:
            del d["mma_type"]
        if n["op"] in ("sum", "max", "min", "cumsum") and d.get("block") is False:
            del d["block"]
        if "body" in n:
            inner = dict(env)
            for i, name in enumerate(n.get("iter_args", [])):
                inner[name] = "iter%d@%d" % (i, depth + 1)
            d["body"] = self.body(n["body"], inner, depth + 1, ref)
        return json.dumps(d, sort_keys=True)

    def _is_symbol(self, v):
        return v in self.doc.get("symbols", {}) or v in self.doc.get("dynamic_symbols", []) or v.startswith("$")

    def summary(self):
        return {
            "dynamic_symbols": sorted(self.doc.get("dynamic_symbols", [])),
            "constraints": sorted(self.constraint(c) for c in self.doc["constraints"]),
            "arguments": [self.argument(a) for a in self.doc["arguments"]],
            "graph": self.body(self.doc["graph"], {}, 0),
            "options": self.doc.get("options", {}),
        }


def symbol_values(doc, defs, names):
    n = Norm(doc, defs)
    out = {}
    for k in names:
        s = n.sym(k)
        if s in n.subs:
            try:
                out[k] = str(sympy.simplify(n.subs[s]))
            except Exception:
                out[k] = str(n.subs[s])
    return out


def compare(ours, theirs, defs):
    """A list of differences (empty when equivalent)."""
    a, b = Norm(ours, defs).summary(), Norm(theirs, defs).summary()
    diffs = []
    for k in a:
        if a[k] != b[k]:
            if isinstance(a[k], list):
                only_a = [x[:300] for x in a[k] if x not in b[k]]
                only_b = [x[:300] for x in b[k] if x not in a[k]]
                diffs.append("%s differ:\n  ours only:   %s\n  theirs only: %s" % (
                    k, "\n               ".join(only_a) or "(order)", "\n               ".join(only_b) or "(order)"))
            else:
                diffs.append("%s differ: ours %s, theirs %s" % (k, a[k], b[k]))
    common = set(ours.get("symbols", {})) & set(theirs.get("symbols", {}))
    va, vb = symbol_values(ours, defs, common), symbol_values(theirs, defs, common)
    for k in sorted(common):
        if va.get(k) != vb.get(k):
            diffs.append("symbol %s: ours %s, theirs %s" % (k, va.get(k), vb.get(k)))
    return diffs
