#!/usr/bin/env python3
"""attention_aiter.py — wavecc's attention beside AMD's hand-written FA v3
forward (ROCm/aiter) in the same cycle model, same run, same shapes.

`make bench-attention` runs it after attention_report. aiter's code objects
are not part of wavecc: the folder comes from WAVECC_AITER (aiter's
repository root); without it this prints one SKIP line.

Per shape (bf16, head dim 128, B*H heads, sequence S for queries and keys,
causal or not) it profiles
  aiter  hsa/gfx942/fmha_v3_fwd's kernel (tools/aiter.py writes the launch
         descriptor from aiter's fmha_fwd_v3_args), 256 query rows and 8
         waves per workgroup, key tiles of 32 (fmha_fwd.csv's ts_kv);
  wavecc Wave's vanilla attention with K8 MMAs (F32_16x16x32_K8_F16 on bf16 data), the
         transcription tests/driver/wave/vanilla_attention[_causal]_16x16x32_k8
         with bf16 inputs, the whole head dim in one workgroup (BLOCK_N = 128)
         and denorm_fp_math_f32 "preserve-sign" as Wave's tests compile it,
         at the tilings TILINGS (BLOCK_M query rows: 128 is 4 waves, 256 is 8;
         BLOCK_K2 keys a trip: Wave's template takes both as parameters);
and prints matrix-core utilisation and modelled time of each, the ratio
of times (wavecc's best / aiter: above 1 is slower) and the ratio of
utilisations (wavecc's fastest tiling's / aiter's: the issue's target is at
least 1, the matrix core as busy as under aiter's kernel). Causal rows too: both causal
loops stop at each workgroup's diagonal, and `wavecc profile` samples
workgroups spread over the grid (docs/cycle-model.md), not its first,
lightest ones. The ratio does not depend on
the model's clock much: both run at the clock the model gives their duty.
Then SDXL's head-dim-64 f16 attentions (batch 2, 10 heads over 64x64 latents,
20 heads over 32x32: B*H 20 at S 4096 and 40 at S 1024), wavecc only (aiter's
gfx942 FA v3 has no head dim 64), at TILINGS64 (BLOCK_N = 64); the
issue's target is 60% matrix-core utilisation.
All figures are `wavecc profile`'s model of MI300X, not measurements.

Usage: attention_aiter.py WAVECC [--quick]
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import aiter  # noqa: E402


def profile(wavecc, path, defs=()):
    r = subprocess.run([wavecc, "profile", path, "--json"] + ["-D%s=%s" % d for d in defs],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return None, (r.stderr or r.stdout).strip().splitlines()[-1:]
    j = json.loads(r.stdout)
    return j, None


# (BLOCK_M, BLOCK_K2) of wavecc's columns, head dim 128 and 64
TILINGS = [(128, 64), (128, 32), (256, 64)]
TILINGS64 = [(64, 64), (64, 128), (128, 64), (128, 32)]
# SDXL's self-attentions at 1024x1024 (batch 2 with classifier-free guidance):
# (B*H, S), head dim 64, f16
SDXL = [(20, 4096), (40, 1024)]


def ours(tmp, causal, dtype):
    name = "vanilla_attention_%s16x16x32_k8.json" % ("causal_" if causal else "")
    # every 16-bit float of the graph bf16 (Wave's F32_16x16x32_K8_F16 names a
    # 16-bit float MMA: bf16 operands select the bf16 instruction)
    g = json.loads(open(os.path.join("tests", "driver", "wave", name)).read().replace('"f16"', '"%s"' % dtype))
    g.setdefault("options", {})["denorm_fp_math_f32"] = "preserve-sign"
    path = os.path.join(tmp, "ours_%s_%s.json" % ("c" if causal else "n", dtype))
    json.dump(g, open(path, "w"))
    return path


def ours_cells(wavecc, path, bh, s, hd, tilings):
    """One cell per tiling, and the best time (with its utilisation)."""
    cells, best = [], None
    for bm, bk in tilings:
        defs = [("B", bh), ("M", s), ("K2", s), ("N", hd), ("K1", hd), ("BLOCK_N", hd), ("BLOCK_M", bm),
                ("BLOCK_K2", bk)]
        jo, err = profile(wavecc, path, defs)
        if jo:
            cells.append("%5.1f%% %8.3f ms" % (100 * jo["matrix_utilisation"], 1e3 * jo["seconds"]))
            if best is None or jo["seconds"] < best[0]:
                best = (jo["seconds"], jo["matrix_utilisation"])
        else:
            cells.append("rejected")
    return cells, best


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: attention_aiter.py WAVECC [--quick]")
    wavecc = os.path.abspath(sys.argv[1])
    quick = "--quick" in sys.argv
    root = aiter.aiter_dir(None)
    if root is None:
        print("SKIP: wavecc beside aiter's FA v3: set WAVECC_AITER to aiter's repository folder "
              "(github.com/ROCm/aiter)")
        return 0
    shapes = [(32, 4096, False), (32, 4096, True)]
    if not quick:
        shapes += [(32, 1024, False), (32, 16384, False), (64, 2048, False), (32, 1024, True),
                   (32, 16384, True)]
    heads = ["wavecc %dx%d" % t for t in TILINGS]
    print("bf16, head dim 128, modelled MI300X (wavecc profile; not measurements); wavecc BLOCK_MxBLOCK_K2")
    print("%-5s %6s %-6s | %-18s | %s | %s" % ("B*H", "S", "mask", "aiter FA v3",
                                             " | ".join("%-18s" % h for h in heads),
                                             "time ratio (best) | util ratio"))
    with tempfile.TemporaryDirectory() as tmp:
        for bh, s, causal in shapes:
            d = os.path.join(tmp, "a%d_%d_%d" % (bh, s, causal))
            os.makedirs(d)
            desc = aiter.fav3_desc(d, root, "gfx942", causal, 1, bh, s, 128, 1)[0]
            ja, err = profile(wavecc, desc)
            if ja:
                first = "%5.1f%% %8.3f ms" % (100 * ja["matrix_utilisation"], 1e3 * ja["seconds"])
            else:
                first = "error: %s" % err
            cells, best = ours_cells(wavecc, ours(tmp, causal, "bf16"), bh, s, 128, TILINGS)
            ratio = "%.3fx" % (best[0] / ja["seconds"]) if ja and best else "-"
            ratio += " | %.3f" % (best[1] / ja["matrix_utilisation"]) if ja and best else " | -"
            print("%-5d %6d %-6s | %-18s | %s | %s" %
                  (bh, s, "causal" if causal else "none", first, " | ".join("%-18s" % c for c in cells), ratio))
        print("SDXL, f16, head dim 64, non-causal (no aiter kernel for head dim 64; target 60%)")
        print("%-5s %6s %-6s | %s | %s" % ("B*H", "S", "mask", " | ".join("%-18s" % ("wavecc %dx%d" % t)
                                                                         for t in TILINGS64), "utilisation (fastest)"))
        for bh, s in (SDXL if not quick else SDXL[:1]):
            cells, best = ours_cells(wavecc, ours(tmp, False, "f16"), bh, s, 64, TILINGS64)
            print("%-5d %6d %-6s | %s | %s" % (bh, s, "none", " | ".join("%-18s" % c for c in cells),
                                              "%.1f%%" % (100 * best[1]) if best else "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
