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
         at the tilings TILINGS (BLOCK_M query rows, BLOCK_K2 keys a trip and
         the waves of a workgroup along M: Wave's templates take all three as
         parameters, the BHSD one as num_waves; the graph's wave tile
         ceiling(BLOCK_M / 4) is rewritten to BLOCK_M / WAVES);
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

With --class it prints instead the class table: S in 1024, 2048, 4096,
8192 x head dim 64 (f16, TILINGS64) and 128 (bf16, TILINGS, aiter beside)
x causal or not, at a constant 131072 query rows (B*H = 131072 / S: 32
heads at S 4096), each row wavecc's fastest tiling.

The first MMA of the chained pair runs a trip ahead where qk_ahead.c's rule
takes the loop (head dim 64, 64-row tiles, no causal cut); with --qk-ahead wavecc's
graphs carry "options": {"qk_ahead": true} (wherever it fits), with
--no-qk-ahead false (nowhere).

Usage: attention_aiter.py WAVECC [--quick | --class] [--qk-ahead | --no-qk-ahead]
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


# (BLOCK_M, BLOCK_K2, waves per workgroup) of wavecc's columns, head dim 128
# and 64; 4 waves is Wave's vanilla template (BLOCK_M / 4 rows a wave)
TILINGS = [(128, 64, 4), (128, 32, 4), (256, 64, 8)]
TILINGS64 = [(64, 64, 4), (64, 128, 4), (128, 64, 4), (128, 32, 4)]
# --qk-ahead / --no-qk-ahead: wavecc's graphs ask for Q.K^T a trip ahead, or
# decline it (passes/plan/qk_ahead.c); neither: its rule decides
QK_AHEAD = True if "--qk-ahead" in sys.argv else False if "--no-qk-ahead" in sys.argv else None
# SDXL's self-attentions at 1024x1024 (batch 2 with classifier-free guidance):
# (B*H, S), head dim 64, f16
SDXL = [(20, 4096), (40, 1024)]


def ours(tmp, causal, dtype):
    name = "vanilla_attention_%s16x16x32_k8.json" % ("causal_" if causal else "")
    # every 16-bit float of the graph bf16 (Wave's F32_16x16x32_K8_F16 names a
    # 16-bit float MMA: bf16 operands select the bf16 instruction)
    g = json.loads(open(os.path.join("tests", "driver", "wave", name)).read().replace('"f16"', '"%s"' % dtype))
    g.setdefault("options", {})["denorm_fp_math_f32"] = "preserve-sign"
    if QK_AHEAD is not None:
        g["options"]["qk_ahead"] = QK_AHEAD
    # the waves along M a parameter, as Wave's BHSD template's num_waves
    for c in g["constraints"]:
        if c["kind"] == "wave" and c["dim"] == "M":
            c["tile"] = "BLOCK_M / WAVES"
    g["symbols"]["WAVES"] = 4
    path = os.path.join(tmp, "ours_%s_%s.json" % ("c" if causal else "n", dtype))
    json.dump(g, open(path, "w"))
    return path


def ours_cells(wavecc, path, bh, s, hd, tilings):
    """One cell per tiling, and the best time (with its utilisation)."""
    cells, best = [], None
    for bm, bk, nw in tilings:
        defs = [("B", bh), ("M", s), ("K2", s), ("N", hd), ("K1", hd), ("BLOCK_N", hd), ("BLOCK_M", bm),
                ("BLOCK_K2", bk), ("WAVES", nw)]
        jo, err = profile(wavecc, path, defs)
        if jo:
            cells.append("%5.1f%% %8.3f ms" % (100 * jo["matrix_utilisation"], 1e3 * jo["seconds"]))
            if best is None or jo["seconds"] < best[0]:
                best = (jo["seconds"], jo["matrix_utilisation"], "%dx%d/%d" % (bm, bk, nw))
        else:
            cells.append("rejected")
    return cells, best


def tiling_name(t):
    return "%dx%d" % t[:2] + ("" if t[2] == 4 else "/%dw" % t[2])


def class_table(wavecc, root, tmp):
    """The class: S x head dim x causal at 131072 query rows, wavecc's fastest
    tiling each, aiter's FA v3 beside at head dim 128."""
    print("the class, modelled MI300X (wavecc profile; not measurements): B*H = 131072 / S; head dim 128 bf16 "
          "(aiter FA v3 beside), 64 f16; wavecc's fastest of its tilings (BLOCK_MxBLOCK_K2/waves)")
    print("%-3s %5s %6s %-6s | %-18s | %-18s %-10s | %s" % ("hd", "B*H", "S", "mask", "aiter FA v3", "wavecc (fastest)",
                                                       "tiling", "time ratio | util ratio"))
    for hd in (64, 128):
        for causal in (False, True):
            for s in (1024, 2048, 4096, 8192):
                bh = 131072 // s
                ja = None
                if hd == 128:
                    d = os.path.join(tmp, "k%d_%d_%d" % (bh, s, causal))
                    os.makedirs(d)
                    ja, _ = profile(wavecc, aiter.fav3_desc(d, root, "gfx942", causal, 1, bh, s, 128, 1)[0])
                first = "%5.1f%% %8.3f ms" % (100 * ja["matrix_utilisation"], 1e3 * ja["seconds"]) if ja else "-"
                path = ours(tmp, causal, "bf16" if hd == 128 else "f16")
                _, best = ours_cells(wavecc, path, bh, s, hd, TILINGS if hd == 128 else TILINGS64)
                cell = "%5.1f%% %8.3f ms" % (100 * best[1], 1e3 * best[0]) if best else "rejected"
                ratio = "%.3fx | %.3f" % (best[0] / ja["seconds"], best[1] / ja["matrix_utilisation"]) \
                    if ja and best else "-"
                print("%-3d %5d %6d %-6s | %-18s | %-18s %-10s | %s" % (hd, bh, s, "causal" if causal else "none",
                                                                   first, cell, best[2] if best else "-", ratio))


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: attention_aiter.py WAVECC [--quick | --class] [--qk-ahead | --no-qk-ahead]")
    wavecc = os.path.abspath(sys.argv[1])
    quick = "--quick" in sys.argv
    root = aiter.aiter_dir(None)
    if root is None:
        print("SKIP: wavecc beside aiter's FA v3: set WAVECC_AITER to aiter's repository folder "
              "(github.com/ROCm/aiter)")
        return 0
    if "--class" in sys.argv:
        with tempfile.TemporaryDirectory() as tmp:
            class_table(wavecc, root, tmp)
        return 0
    shapes = [(32, 4096, False), (32, 4096, True)]
    if not quick:
        shapes += [(32, 1024, False), (32, 16384, False), (64, 2048, False), (32, 1024, True),
                   (32, 16384, True)]
    heads = ["wavecc " + tiling_name(t) for t in TILINGS]
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
        print("%-5s %6s %-6s | %s | %s" % ("B*H", "S", "mask", " | ".join("%-18s" % ("wavecc " + tiling_name(t))
                                                                         for t in TILINGS64), "utilisation (fastest)"))
        for bh, s in (SDXL if not quick else SDXL[:1]):
            cells, best = ours_cells(wavecc, ours(tmp, False, "f16"), bh, s, 64, TILINGS64)
            print("%-5d %6d %-6s | %s | %s" % (bh, s, "none", " | ".join("%-18s" % c for c in cells),
                                              "%.1f%%" % (100 * best[1]) if best else "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
