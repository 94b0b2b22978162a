#!/usr/bin/env python3
"""sym_sympify_check.py — check that SymPy reads `wavecc sym` output back.

    bench/sym_sympify_check.py [CORPUS_DIR] [--wavecc PATH] [--points N] [--limit N]

Simplifies the corpus with `wavecc sym --assume`, then for every result:
parses it with SymPy's sympify (`$` names are renamed, since Python names
cannot hold `$`; xor is a function evaluating to bitwise xor on integers),
and compares it with the sympified input at random points satisfying the
assumptions' bounds. Needs python3-sympy; it is a cross-check of the
printer's promise, not part of `make check`. Exit status 1 on any failure.
"""
import random
import re
import subprocess
import sys

import sympy


class xor(sympy.Function):
    @classmethod
    def eval(cls, a, b):
        if a.is_Integer and b.is_Integer:
            return sympy.Integer(int(a) ^ int(b))
        return None


def rename(text):
    return re.sub(r"\$([A-Za-z_0-9]+)", r"DOLLAR_\1", text)


def main():
    args = sys.argv[1:]
    corpus, wavecc, points, limit = "tests/ir/sym/data/sym_corpus", "./wavecc", 5, 0
    while args:
        a = args.pop(0)
        if a == "--wavecc":
            wavecc = args.pop(0)
        elif a == "--points":
            points = int(args.pop(0))
        elif a == "--limit":
            limit = int(args.pop(0))
        else:
            corpus = a
    lines = []
    with open(corpus + "/corpus.txt") as f:
        for line in f:
            line = line.strip()
            if line:
                lines.append(re.sub(r"^simplify time: [0-9.]+s: ", "", line))
    if limit:
        lines = lines[:limit]
    out = subprocess.run([wavecc, "sym", "--assume", corpus + "/corpus_assumptions.txt"],
                         input="\n".join(lines) + "\n", capture_output=True, text=True)
    results = out.stdout.split("\n")[: len(lines)]
    bounds = {}
    with open(corpus + "/corpus_assumptions.txt") as f:
        for rel in f:
            m = re.match(r"\s*(\$?\w+)\s*(>=|<|>|<=)\s*(-?\d+)\s*$", rel)
            if m:
                name, op, k = m.group(1), m.group(2), int(m.group(3))
                lo, hi = bounds.get(name, (None, None))
                if op == ">=":
                    lo = k
                elif op == ">":
                    lo = k + 1
                elif op == "<":
                    hi = k - 1
                else:
                    hi = k
                bounds[name] = (lo, hi)
    known = {"floor", "ceiling", "Mod", "Max", "Min", "Piecewise", "Eq", "Ne", "True", "False", "xor"}
    rng = random.Random(1)
    bad = 0
    for i, (src, res) in enumerate(zip(lines, results)):
        # every other name is a symbol (sympify would take N, S, E, ... as
        # SymPy objects)
        ns = {"xor": xor}
        for name in set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", rename(src) + " " + rename(res))) - known:
            ns[name] = sympy.Symbol(name, integer=True)
        try:
            e_in = sympy.sympify(rename(src), locals=ns)
            e_out = sympy.sympify(rename(res), locals=ns)
        except Exception as ex:  # noqa: BLE001 - report any parse failure
            print(f"line {i + 1}: sympify failed: {ex}: {res[:200]}")
            bad += 1
            continue
        syms = sorted(e_in.free_symbols | e_out.free_symbols, key=str)
        for _ in range(points):
            env = {}
            for s in syms:
                name = str(s).replace("DOLLAR_", "$")
                lo, hi = bounds.get(name, (None, None))
                lo = 0 if lo is None else lo
                hi = lo + rng.choice([8, 64, 4096]) if hi is None else hi
                v = rng.randint(lo, hi)
                if name == "K":
                    v = 256 * max(1, v // 256)
                if name in ("M", "N"):
                    v = 32 * max(1, v // 32)
                env[s] = v
            try:
                a = e_in.subs(env)
            except Exception:  # noqa: BLE001 - undefined at this point
                continue
            if not a.is_number or a.has(sympy.zoo, sympy.nan):
                continue
            b = e_out.subs(env)
            if sympy.simplify(a - b) != 0:
                print(f"line {i + 1}: differs at {env}: {a} vs {b}")
                bad += 1
                break
    print(f"sympify check: {len(results)} results read back by SymPy {sympy.__version__}, {bad} failures")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
