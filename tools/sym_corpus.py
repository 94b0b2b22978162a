#!/usr/bin/env python3
"""sym_corpus.py — write wavecc's own symbolic-expression corpus.

The expressions are the shapes of index arithmetic a Wave kernel produces
before simplification (see docs/sym.md): a thread's coordinate built from
workgroup, wave and lane terms ($WG0*BLOCK + WAVE*floor($T0/64) +
Mod($T0, 16) + copy offset), MMA lane layouts (4*floor(Mod($T0, 64)/16)),
K-loop offsets ($ARGK*BLOCK_K + ...), and what the compiler then asks of
them: floor and Mod by a tile, bounds as Piecewise, grouped launch orders,
Max/Min of ceilings, LDS addresses with a padded row stride, products of
sums. Tile sizes are drawn (seeded) from the sizes Wave's tests use.

Usage: tools/sym_corpus.py OUT_DIR   writes OUT_DIR/corpus.txt (one
expression per line) and OUT_DIR/corpus_assumptions.txt. The expected forms are
wavecc's own results, recorded in OUT_DIR/corpus_expected.txt by
`wavecc sym --assume OUT_DIR/corpus_assumptions.txt < OUT_DIR/corpus.txt`
(see tests/ir/sym/data/sym_corpus/README.md).
"""
import random
import sys

TILES = [16, 32, 64, 128, 256]
MMA = [16, 32]
ASSUMPTIONS = """\
# Facts the corpus expressions hold under: thread and workgroup ids of a
# 256-work-item workgroup (4 waves along dim 0) with up to 4 along dim 1,
# the K-loop counter, and tensor sizes (K a multiple of 64).
$T0 >= 0
$T0 < 256
$T1 >= 0
$T1 < 4
$T2 >= 0
$T2 < 1
$WG0 >= 0
$WG1 >= 0
$WG2 >= 0
$ARGK >= 0
M >= 1
N >= 1
K >= 64
Mod(K, 64) == 0
B >= 1
"""


def lane_term(r):
    """A lane's coordinate inside a wave: row or column of an MMA layout."""
    m = r.choice(MMA)
    return r.choice([f"Mod($T0, {m})", f"4*floor((Mod($T0, 64))/{m})", f"Mod($T0, 64)",
                     f"floor((Mod($T0, 64))/{m})", f"8*floor((Mod($T0, 64))/32)"])


def coord(r, wg="$WG0", wave="floor($T0/64)"):
    """A thread's global coordinate along one dim, for one expansion copy."""
    bm = r.choice(TILES[1:])
    waves = r.choice([1, 2, 4])
    wm = max(bm // waves, 16)
    copy = r.choice([0, 0, 16, 32, 48, 4, 8])
    return bm, f"{bm}*{wg} + {wm}*{wave} + {lane_term(r)} + {copy}" if copy else f"{bm}*{wg} + {wm}*{wave} + {lane_term(r)}"


def family_floor_mod(r):
    bm, c = coord(r, wave=r.choice(["floor($T0/64)", "$T1"]))
    d = r.choice([bm, 16, 4, 64, r.choice(TILES)])
    return r.choice([f"floor(({c})/{d})", f"Mod({c}, {d})", f"floor((Mod({c}, {bm}))/{d})",
                     f"Mod(floor(({c})/{d}), {r.choice([2, 4, 8])})"])


def family_mma(r):
    k = r.choice([4, 8])
    m = r.choice(MMA)
    j = r.randrange(0, 4)
    e = f"{k}*floor((Mod($T0, 64))/{m}) + {j}"
    return r.choice([f"Mod({e}, {k})", f"floor(({e})/{k})", f"floor(({e})/{2 * k})", f"Mod($T0 + {64 * j}, {m})",
                     f"floor((Mod($T0, 64) + {m * j})/{m})", f"Mod(floor($T0/{m}), {64 // m})"])


def family_kloop(r):
    bk = r.choice([16, 32, 64, 128])
    kk = r.choice([0, 4, 8, 16])
    e = f"{bk}*$ARGK + 4*floor((Mod($T0, 64))/16) + {kk}"
    return r.choice([f"floor(({e})/{bk})", f"Mod({e}, {bk})", f"Mod({e}, 4)",
                     f"floor(({e})/4) - {bk // 4}*$ARGK", f"Piecewise(({e}, {e} < K), (0, True))"])


def family_bounds(r):
    bm, c = coord(r)
    size = r.choice(["M", "N", str(r.choice([100, 111, 813, 4096]))])
    return r.choice([f"Piecewise((1, {c} < {size}), (0, True))",
                     f"Piecewise(({c}, ({c} >= 0) & ({c} < {size})), (0, True))",
                     f"Piecewise((Mod($T0, 16), $T0 < 256), (0, True))",
                     f"Min({bm}, {size} - {bm}*$WG0)", f"Max(0, Min({bm}, {size} - {bm}*$WG0))",
                     f"Piecewise((0, $T0 >= 256), ({c}, True))"])


def family_grouped(r):
    g = r.choice([2, 4, 8, 16, 32])
    t = r.choice([32, 64, 128])
    return r.choice([f"floor(($WG0 + $WG1*ceiling(M/{t}))/{g})", f"Mod($WG0 + $WG1*ceiling(M/{t}), {g})",
                     f"{t}*Mod(floor(($WG0 + {g}*$WG1)/{g}), ceiling(N/{t})) + Mod($T0, 16)",
                     f"floor(({g}*$WG1 + Mod($WG0, {g}))/{g})",
                     f"Max(1, ceiling(N/{t}) - {g}*floor(ceiling(N/{t})/{g}))"])


def family_ceil(r):
    t = r.choice(TILES)
    s = r.choice(["M", "N", "K"])
    return r.choice([f"Max(1, ceiling({s}/{t}))", f"ceiling({s}/{t})*{t} - {s}", f"Min({s}, Max({t}, {s}))",
                     f"Max(Min({s}, 256), 64)", f"ceiling(ceiling({s}/4)/64)*64", f"floor(({s} + {t - 1})/{t})",
                     f"Max(ceiling(ceiling(K/4)/64)*64, 64)"])


def family_lds(r):
    stride = r.choice([16, 32, 64]) + r.choice([0, 4, 8])
    i = r.randrange(0, 4)
    e = f"(Mod($T0, 16) + {16 * i})*{stride} + 4*floor((Mod($T0, 64))/16)"
    return r.choice([e, f"Mod({e}, {stride})", f"floor(({e})/{stride})", f"2*({e})",
                     f"floor(($T0 + {64 * i})/{stride})*{stride} + Mod($T0 + {64 * i}, {stride})"])


def family_products(r):
    a, b = r.choice(TILES), r.choice(TILES)
    return r.choice([f"({a}*$WG0 + Mod($T0, 16))*K + {b}*$ARGK + 4*floor((Mod($T0, 64))/16)",
                     f"({a}*$WG0 + floor($T0/64))*({b}*$WG1 + $T1) - {a * b}*$WG0*$WG1",
                     f"(M + {a})*(N + {b}) - M*N", f"(floor($T0/64) + {a})*{b} - {a * b}",
                     f"(B*M + $WG2*M + {a}*$WG0)*N + {b}*$WG1 + Mod($T0, {b})"])


FAMILIES = [family_floor_mod, family_mma, family_kloop, family_bounds, family_grouped, family_ceil, family_lds,
            family_products]


def main():
    out = sys.argv[1]
    r = random.Random(20261124)
    seen, exprs = set(), []
    while len(exprs) < 480:
        fam = FAMILIES[len(exprs) % len(FAMILIES)]
        e = fam(r)
        if e not in seen:
            seen.add(e)
            exprs.append(e)
    with open(f"{out}/corpus.txt", "w") as f:
        f.write("".join(e + "\n" for e in exprs))
    with open(f"{out}/corpus_assumptions.txt", "w") as f:
        f.write(ASSUMPTIONS)


if __name__ == "__main__":
    main()
