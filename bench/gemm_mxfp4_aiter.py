#!/usr/bin/env python3
"""gemm_mxfp4_aiter.py — wavecc's MXFP4 GEMM beside AMD's hand-written
gfx950 MXFP4 GEMM (ROCm/aiter) in the same cycle model, same run, same shapes.

`make bench-gemm` runs it after gemm_report. aiter's code objects are not
part of wavecc: the folder comes from WAVECC_AITER (aiter's repository root);
without it this prints one SKIP line.

Per shape (M = N = K; fp4 e2m1 operands packed two per byte, e8m0 scales per
32 of K) it profiles on the modelled MI355X
  aiter  hsa/gfx950/f4gemm's 256x256 kernel with B not preshuffled (bf16
         out, 4 waves; tools/aiter.py's F4GEMM_FIELDS give its argument
         offsets, filled as gemm_a4w4_asm does, with aiter's shuffled scale
         layout's shapes);
  wavecc Wave's MXFP4 GEMM (tests/driver/wave/scaled_gemm_mxfp4.json, f32
         out, v_mfma_scale_f32_16x16x128_f8f6f4) at the tiles given below,
         4 waves of 128x128 each for 256x256; and Wave's preshuffled-scale
         GEMM (scaled_gemm_mxfp4_preshuffle_scales.json, 256x256x256, 8
         waves, --lds-stages 2), f32 out and bf16 out (_bf16.json);
and prints matrix-core utilisation and modelled time of each and the ratio
of times (wavecc / aiter: above 1 is slower). The graphs' output is f32 as
in Wave's tests, twice aiter's bf16 bytes (the comparison favours aiter
there), except the bf16 preshuffled row's.
All figures are `wavecc profile`'s model of MI355X, not measurements.

Usage: gemm_mxfp4_aiter.py WAVECC [--quick]
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import aiter  # noqa: E402

# wavecc's tiles: (BLOCK_M, BLOCK_N, BLOCK_K) of scaled_gemm_mxfp4.json (2x2 waves)
TILES = [(256, 256, 256), (128, 256, 256)]
# Wave's preshuffled-scale GEMM (256x256x256, 4x2 waves; scales four to a dword,
# prefetched), with two LDS buffers: f32 out as Wave's test, bf16 out (the
# template's output_dtype) as aiter's kernel writes
PRESHUFFLED = [("preshuffled f32 out", "scaled_gemm_mxfp4_preshuffle_scales.json", ["--lds-stages", "2"]),
               ("preshuffled bf16 out", "scaled_gemm_mxfp4_preshuffle_scales_bf16.json", ["--lds-stages", "2"])]


def profile(wavecc, path, defs=(), extra=()):
    r = subprocess.run([wavecc, "profile", path, "--json", "--sample", "2"] +
                       ["-D%s=%s" % d for d in defs] + list(extra), capture_output=True, text=True)
    if r.returncode != 0:
        return None, " ".join((r.stderr or r.stdout).strip().splitlines()[-1:])[:60]
    return json.loads(r.stdout), None


def f4gemm_desc(out, root, M, N, K):
    """aiter's f4gemm 256x256 launch descriptor (no input data: profile
    fills the buffers), as tools/aiter.py's f4gemm_check writes it."""
    co = os.path.join(root, "hsa", "gfx950", "f4gemm", "f4gemm_bf16_per1x32Fp4_noBpreShuffle_256x256.co")
    if not os.path.exists(co):
        return None
    sm, sn = -(-M // 256) * 256, -(-(K // 32) // 8) * 8
    tm = -(-N // 256) * 256
    v = {"alpha": 1.0, "beta": 0.0, "stride_D0": N, "stride_C0": N, "stride_A0": K, "stride_B0": K, "M": M,
         "N": N, "K": K, "stride_ScaleA0": sn, "stride_ScaleB0": sn, "log2_k_split": 0}
    bufs = {"ptr_D": ("d", "bf16", [M, N], "write"), "ptr_A": ("a", "u8", [M, K // 2], "read"),
            "ptr_B": ("b", "u8", [N, K // 2], "read"), "ptr_ScaleA": ("sa", "u8", [sm, sn], "read"),
            "ptr_ScaleB": ("sb", "u8", [tm, sn], "read")}
    args = []
    for i, (f, kind) in enumerate(aiter.F4GEMM_FIELDS):
        if f in bufs:
            n, dt, shp, acc = bufs[f]
            args.append({"name": n, "kind": "buffer", "dtype": dt, "shape": shp, "offset": 16 * i, "access": acc})
        elif f in v:
            args.append({"name": f, "kind": "scalar", "dtype": "f32" if kind == "f" else "u32",
                         "offset": 16 * i, "value": v[f]})
    desc = {"format": "wavecc-launch/1", "code_object": co,
            "kernel": "_ZN5aiter44f4gemm_bf16_per1x32Fp4_noBpreShuffle_256x256E", "arch": "gfx950",
            "workgroup_size": [256, 1, 1], "grid": [-(-N // 256), -(-M // 256), 1], "dynamic_lds_bytes": 0,
            "kernarg_size": 16 * (len(aiter.F4GEMM_FIELDS) - 1) + 4, "args": args}
    path = os.path.join(out, "f4gemm_%d_%d_%d.json" % (M, N, K))
    json.dump(desc, open(path, "w"))
    return path


def cell(j, err):
    return "%5.1f%% %8.3f ms" % (100 * j["matrix_utilisation"], 1e3 * j["seconds"]) if j else "error: %s" % err


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: gemm_mxfp4_aiter.py WAVECC [--quick]")
    wavecc = os.path.abspath(sys.argv[1])
    quick = "--quick" in sys.argv
    root = aiter.aiter_dir(None)
    if root is None:
        print("SKIP: wavecc's MXFP4 GEMM beside aiter's f4gemm: set WAVECC_AITER to aiter's repository folder "
              "(github.com/ROCm/aiter)")
        return 0
    sizes = [8192] if quick else [4096, 8192]
    graph = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "driver", "wave",
                         "scaled_gemm_mxfp4.json")
    print("MXFP4 GEMM (fp4 x fp4, e8m0 scales per 32), M = N = K, modelled MI355X (wavecc profile; not "
          "measurements); matrix-core utilisation and time")
    head = ["aiter f4gemm 256x256"] + ["wavecc %dx%dx%d" % t for t in TILES] + ["wavecc " + p[0] for p in PRESHUFFLED]
    print("%6s | %s | %s" % ("size", " | ".join("%-20s" % h for h in head), "time ratio (best)"))
    with tempfile.TemporaryDirectory() as tmp:
        for s in sizes:
            desc = f4gemm_desc(tmp, root, s, s, s)
            if desc is None:
                print("SKIP: no hsa/gfx950/f4gemm in %s" % root)
                return 0
            ja, err = profile(wavecc, desc)
            cells, best = [cell(ja, err)], None
            for bm, bn, bk in TILES:
                jo, err = profile(wavecc, graph, [("M", s), ("N", s), ("K", s), ("BLOCK_M", bm), ("BLOCK_N", bn),
                                                  ("BLOCK_K", bk)], ["--mcpu", "gfx950"])
                cells.append(cell(jo, err))
                if jo:
                    best = jo["seconds"] if best is None else min(best, jo["seconds"])
            for _, pfile, popts in PRESHUFFLED:
                jo, err = profile(wavecc, os.path.join(os.path.dirname(graph), pfile), [("M", s), ("N", s), ("K", s)],
                                  ["--mcpu", "gfx950"] + popts)
                cells.append(cell(jo, err))
                if jo:
                    best = jo["seconds"] if best is None else min(best, jo["seconds"])
            ratio = "%.2fx" % (best / ja["seconds"]) if ja and best else "-"
            print("%6d | %s | %s" % (s, " | ".join("%-20s" % c for c in cells), ratio))
    return 0


if __name__ == "__main__":
    sys.exit(main())
