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
         waves per workgroup;
  wavecc Wave's vanilla attention with K8 MMAs (F32_16x16x32_K8_F16 on bf16 data), the
         transcription tests/driver/wave/vanilla_attention[_causal]_16x16x32_k8
         with bf16 inputs, the whole head dim in one workgroup (BLOCK_N = 128)
         and denorm_fp_math_f32 "preserve-sign" as Wave's tests compile it,
         with 128 query rows (4 waves) and 256;
and prints matrix-core utilisation and modelled time of each and the ratio
of times (wavecc / aiter: above 1 is slower). Causal rows too: both causal
loops stop at each workgroup's diagonal, and `wavecc profile` samples
workgroups spread over the grid (docs/cycle-model.md), not its first,
lightest ones. The ratio does not depend on
the model's clock much: both run at the clock the model gives their duty.
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


def ours(tmp, causal, block_m):
    name = "vanilla_attention_%s16x16x32_k8.json" % ("causal_" if causal else "")
    # every 16-bit float of the graph bf16 (Wave's F32_16x16x32_K8_F16 names a
    # 16-bit float MMA: bf16 operands select the bf16 instruction)
    g = json.loads(open(os.path.join("tests", "driver", "wave", name)).read().replace('"f16"', '"bf16"'))
    g.setdefault("options", {})["denorm_fp_math_f32"] = "preserve-sign"
    path = os.path.join(tmp, "ours_%s_%d.json" % ("c" if causal else "n", block_m))
    json.dump(g, open(path, "w"))
    return path


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
    print("bf16, head dim 128, modelled MI300X (wavecc profile; not measurements)")
    print("%-8s %6s %-7s | %-18s | %-18s | %-18s | %s" %
          ("B*H", "S", "mask", "aiter FA v3", "wavecc 128 rows", "wavecc 256 rows", "time ratio (best)"))
    with tempfile.TemporaryDirectory() as tmp:
        for bh, s, causal in shapes:
            d = os.path.join(tmp, "a%d_%d_%d" % (bh, s, causal))
            os.makedirs(d)
            desc = aiter.fav3_desc(d, root, "gfx942", causal, 1, bh, s, 128, 1)[0]
            ja, err = profile(wavecc, desc)
            cells = []
            if ja:
                cells.append("%5.1f%% %8.3f ms" % (100 * ja["matrix_utilisation"], 1e3 * ja["seconds"]))
            else:
                cells.append("error: %s" % err)
            best = None
            for bm in (128, 256):
                defs = [("B", bh), ("M", s), ("K2", s), ("N", 128), ("K1", 128), ("BLOCK_N", 128),
                        ("BLOCK_M", bm)]
                jo, err = profile(wavecc, ours(tmp, causal, bm), defs)
                if jo:
                    cells.append("%5.1f%% %8.3f ms" % (100 * jo["matrix_utilisation"], 1e3 * jo["seconds"]))
                    best = jo["seconds"] if best is None else min(best, jo["seconds"])
                else:
                    cells.append("rejected")
            ratio = "%.2fx" % (best / ja["seconds"]) if ja and best else "-"
            print("%-8d %6d %-7s | %-18s | %-18s | %-18s | %s" %
                  (bh, s, "causal" if causal else "none", cells[0], cells[1], cells[2], ratio))
    return 0


if __name__ == "__main__":
    sys.exit(main())
