#!/usr/bin/env python3
"""aiter_gemm.py — the cycle model against AMD's measured times of AMD's own
GEMM kernels: the same code objects, the same shapes.

aiter's tuning tables (aiter/configs/a8w8_bpreshuffle_tuned_gemm.csv) give,
per GEMM shape on MI300X (gfx942, 304 CUs), the hand-written assembly kernel
AMD chose (hsa/gfx942/i8gemm/, int8 in, bf16 out, per-token scales) and the
time AMD measured for it (column `us`). This runs `wavecc profile` on that
kernel's code object at that shape (launch descriptor from tools/aiter.py)
and prints modelled / measured per row, the geometric mean of the ratio and
its spread, separately for the rows of even and odd index in (N, K, M)
order (the rows a fit may use, and rows held out to check it). A ratio below 1 is a model faster
than the hardware. Nothing here ran on a GPU: the measured column is AMD's.

aiter's folder (repository root, with hsa/ and aiter/configs/) comes from
WAVECC_AITER; without it one SKIP line. Rows with split-K > 1 are skipped
(their launches accumulate atomically into a zeroed output).

Usage: aiter_gemm.py WAVECC [--limit N] [--clock MHZ]
"""
import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import aiter  # noqa: E402


def rows(root):
    path = os.path.join(root, "aiter", "configs", "a8w8_bpreshuffle_tuned_gemm.csv")
    if not os.path.exists(path):
        sys.exit("aiter_gemm.py: no %s" % path)
    lines = [l.strip().split(",") for l in open(path)]
    head, out = lines[0], []
    col = {n: i for i, n in enumerate(head)}
    for r in lines[1:]:
        if len(r) != len(head) or r[col["gfx"]] != "gfx942" or r[col["cu_num"]] != "304":
            continue
        if r[col["libtype"]] != "asm" or int(r[col["splitK"]]) > 1:
            continue
        name = r[col["kernelName"]]
        tile = name.split("BpreShuffle_")[1].rstrip("E")
        out.append((int(r[col["M"]]), int(r[col["N"]]), int(r[col["K"]]), tile, float(r[col["us"]])))
    return out


def stats(ratios):
    if not ratios:
        return "no rows"
    logs = [math.log(x) for x in ratios]
    g = math.exp(sum(logs) / len(logs))
    sd = math.exp((sum((l - math.log(g)) ** 2 for l in logs) / len(logs)) ** 0.5)
    return "geometric mean %.3f, spread x/÷ %.3f, range %.3f..%.3f (%d rows)" % (
        g, sd, min(ratios), max(ratios), len(ratios))


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: aiter_gemm.py WAVECC [--limit N] [--clock MHZ]")
    wavecc = os.path.abspath(sys.argv[1])
    limit = int(sys.argv[sys.argv.index("--limit") + 1]) if "--limit" in sys.argv else 0
    extra = ["--clock", sys.argv[sys.argv.index("--clock") + 1]] if "--clock" in sys.argv else []
    root = aiter.aiter_dir(None)
    if root is None:
        print("SKIP: the model against aiter's measured GEMMs: set WAVECC_AITER to aiter's repository folder")
        return 0
    # alternate rows within each (N, K) family: fit and held-out rows cover the same shapes
    rs = sorted(rows(root), key=lambda r: (r[1], r[2], r[0]))
    if limit:
        rs = rs[:limit]
    print("aiter's int8 GEMMs on MI300X: AMD's measured time (aiter/configs/a8w8_bpreshuffle_tuned_gemm.csv) "
          "beside wavecc profile's model of the same code object")
    print("%6s %6s %6s %-8s | %10s | %10s %6s %6s | %s" % ("M", "N", "K", "tile", "measured", "model",
                                                          "util", "MHz", "model/measured"))
    fit, held = [], []
    with tempfile.TemporaryDirectory() as t:
        for i, (m, n, k, tile, us) in enumerate(rs):
            desc = aiter.i8gemm_desc(t, root, tile, m, n, k, data=False)[0]
            r = subprocess.run([wavecc, "profile", desc, "--json"] + extra, capture_output=True, text=True)
            if r.returncode != 0:
                print("%6d %6d %6d %-8s | %8.2f us | error: %s" % (m, n, k, tile, us, r.stderr.strip()[-120:]))
                continue
            j = json.loads(r.stdout)
            model = 1e6 * j["seconds"]
            ratio = model / us
            (fit if i % 2 == 0 else held).append(ratio)
            print("%6d %6d %6d %-8s | %8.2f us | %8.2f us %5.1f%% %6.0f | %.3f%s" % (
                m, n, k, tile, us, model, 100 * j["matrix_utilisation"], j["clock_mhz"], ratio,
                "" if i % 2 == 0 else "  (held out)"))
    print("rows of even index: " + stats(fit))
    print("rows held out (odd): " + stats(held))
    return 0


if __name__ == "__main__":
    sys.exit(main())
