#!/usr/bin/env python3
"""aiter.py — AMD's hand-written kernels from ROCm/aiter on wavecc's emulator.

aiter (github.com/ROCm/aiter, MIT) ships assembly code objects under hsa/<arch>/
with the host code that launches them. No AMD binary is part of wavecc: this
script takes aiter's folder (the repository root, or any folder holding its
hsa/ tree) from --aiter or the WAVECC_AITER environment variable.

For a kernel it writes what wavecc needs to run it: a launch descriptor
(docs/launch-format.md) whose arguments sit at the byte offsets of aiter's
packed argument struct, and seeded random inputs as .npy files. Then
`wavecc run DESC --in ... --out ...` runs the code object on the emulator and
the result is compared with a float64 reference computed here with NumPy;
`wavecc profile DESC` gives the cycle model's figures for the same launch.

Kernels:
  i8gemm   int8 GEMMs (hsa/gfx942/i8gemm/), bf16 out, per-token scales, bias
  bf16gemm bf16 GEMMs (hsa/gfx942/bf16gemm/), f32 out
  f4gemm   MXFP4 GEMM (hsa/gfx950/f4gemm/), bf16 out, e8m0 scales per 32
  fav3  FA v3 forward attention (hsa/<arch>/fmha_v3_fwd/), batch mode, BHSD
        layout. The argument struct is aiter's `fmha_fwd_v3_args`
        (csrc/include/mha_fwd.h): every field padded to 16 bytes (a pointer
        and 8 pad bytes, or a 32-bit value and 12), filled as
        init_fmha_fwd_v3_args does (csrc/cpp_itfs/mha_fwd.cu): strides in
        bytes, s_Ts = ts_qo rows of Q, tune option 5 (3 for causal masks when
        the head count is not a multiple of 8). Grid as get_grid_dim: x =
        ceil(ceil(S_q / ts_qo) / tg) with tg = 2 for causal (a workgroup takes
        a head tile and a tail tile), y = heads, z = batch; 512 threads.

Usage:
  aiter.py check [--aiter DIR] [--wavecc BIN] [--arch gfx942] [--quick]
      run the kernels at small shapes against float64; exit 1 on a mismatch,
      0 with a SKIP line when no aiter folder is given
  aiter.py desc fav3 OUTDIR [--causal] [-B N] [-H N] [-S N] [-D N] [--arch A]
      write OUTDIR/fav3.json (+ inputs) for `wavecc run` / `wavecc profile`
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

FAV3_FIELDS = [  # (name, kind) in fmha_fwd_v3_args order; each 16 bytes
    ("ptr_o", "p"), ("ptr_q", "p"), ("ptr_k", "p"), ("ptr_v", "p"), ("ptr_lse", "p"),
    ("scalar", "f"), ("s_seq_len", "u"), ("s_Seqs", "u"), ("s_Ts", "u"), ("s_Hs", "u"),
    ("s_Bs", "u"), ("s_gqa", "u"), ("s_k_Seqs", "u"), ("s_k_Hs", "u"), ("s_k_Bs", "u"),
    ("s_opt", "u"), ("s_lse", "u"), ("s_kv_seq_len", "u"), ("s_qk_head_dim", "u"),
    ("s_v_head_dim", "u"), ("s_q_head_num", "u"), ("s_v_Seqs", "u"), ("s_v_Hs", "u"),
    ("s_v_Bs", "u"), ("s_o_Seqs", "u"), ("s_o_Hs", "u"), ("s_o_Bs", "u"),
    ("ptr_qseq", "p"), ("ptr_kseq", "p"), ("s_lse_Hs", "u"), ("ptr_qseq_padding", "p"),
    ("ptr_kseq_padding", "p"), ("ptr_q_descale", "p"), ("ptr_k_descale", "p"),
    ("ptr_v_descale", "p"), ("s_descale_q_Bs", "u"), ("s_descale_q_Hs", "u"),
    ("s_descale_k_Bs", "u"), ("s_descale_k_Hs", "u"), ("s_descale_v_Bs", "u"),
    ("s_descale_v_Hs", "u"),
]


def aiter_dir(arg):
    d = arg or os.environ.get("WAVECC_AITER", "")
    if not d:
        return None
    if not os.path.isdir(os.path.join(d, "hsa")):
        sys.exit("aiter.py: %s has no hsa/ folder (WAVECC_AITER or --aiter names aiter's repository)" % d)
    return d


def fav3_code_object(root, arch, causal):
    """(code object path, kernel name, ts_qo) of the hd128 bf16 batch-mode
    kernel with round-to-nearest-even conversion, from aiter's fmha_fwd.csv
    (columns dtype,hdim_q,hdim_v,mask,mode,bf16_cvt,ts_qo,ts_kv,knl_name,
    co_name; mask 2 is causal). gfx942's code objects sit in MI300/."""
    d = os.path.join(root, "hsa", arch, "fmha_v3_fwd")
    try:
        rows = [l.strip().split(",") for l in open(os.path.join(d, "fmha_fwd.csv"))][1:]
    except OSError as e:
        sys.exit("aiter.py: %s" % e)
    for r in rows:
        if r[:6] == ["bf16", "128", "128", "2" if causal else "0", "0", "0"]:
            sub = "MI300" if arch == "gfx942" else ""
            return os.path.join(d, sub, r[9]), r[8], int(r[6])
    sys.exit("aiter.py: no hd128 bf16 %skernel in %s/fmha_fwd.csv" % ("causal " if causal else "", d))


def bf16_bits(x):
    """float32 array -> bf16 bits (uint16), round to nearest even."""
    u = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    return u.astype(np.uint16)


def bf16_value(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def fav3_desc(out, root, arch="gfx942", causal=False, B=1, H=1, S=256, D=128, seed=1):
    """Write the descriptor and inputs of one FA v3 forward launch into out/;
    returns (descriptor path, {name: npy path} of inputs, q, k, v as float64)."""
    co, kname, ts_qo = fav3_code_object(root, arch, causal)
    if not os.path.exists(co):
        sys.exit("aiter.py: no %s in aiter's folder" % co)
    rng = np.random.default_rng(seed)
    shp = (B, H, S, D)
    ins, vals = {}, {}
    for n in ("q", "k", "v"):
        bits = bf16_bits(rng.standard_normal(shp, dtype=np.float32))
        path = os.path.join(out, n + ".npy")
        np.save(path, bits)
        ins[n], vals[n] = path, bf16_value(bits)
    e = 2  # bytes per bf16
    row, head, batch = D * e, S * D * e, H * S * D * e
    tg = 2 if causal else 1
    opt = 3 if causal and (H % 8 != 0 or S > 16384) else 5
    v = {"scalar": 1.0 / math.sqrt(D), "s_seq_len": S, "s_Seqs": row, "s_Ts": ts_qo * row,
         "s_Hs": head, "s_Bs": batch, "s_gqa": 1, "s_k_Seqs": row, "s_k_Hs": head, "s_k_Bs": batch,
         "s_opt": opt, "s_lse": 1, "s_kv_seq_len": S, "s_qk_head_dim": D, "s_v_head_dim": D,
         "s_q_head_num": H, "s_v_Seqs": row, "s_v_Hs": head, "s_v_Bs": batch, "s_o_Seqs": row,
         "s_o_Hs": head, "s_o_Bs": batch, "s_lse_Hs": S * 4}
    bufs = {"ptr_o": ("o", "bf16", list(shp), "write"), "ptr_q": ("q", "bf16", list(shp), "read"),
            "ptr_k": ("k", "bf16", list(shp), "read"), "ptr_v": ("v", "bf16", list(shp), "read"),
            "ptr_lse": ("lse", "f32", [B, H, S], "write")}
    args = []
    for i, (f, kind) in enumerate(FAV3_FIELDS):
        if f in bufs:
            n, dt, s, acc = bufs[f]
            args.append({"name": n, "kind": "buffer", "dtype": dt, "shape": s, "offset": 16 * i,
                         "access": acc})
        elif f in v:
            args.append({"name": f, "kind": "scalar", "dtype": "f32" if kind == "f" else "u32",
                         "offset": 16 * i, "value": v[f]})
    grid = [(-(-S // ts_qo) + tg - 1) // tg, H, B]
    desc = {"format": "wavecc-launch/1", "code_object": os.path.abspath(co), "kernel": kname, "arch": arch,
            "workgroup_size": [512, 1, 1], "grid": grid, "dynamic_lds_bytes": 0,
            "kernarg_size": 16 * len(FAV3_FIELDS), "args": args}
    path = os.path.join(out, "fav3.json")
    with open(path, "w") as fh:
        json.dump(desc, fh, indent=1)
    return path, ins, vals


def attention_ref(q, k, v, causal):
    """float64 softmax(q k^T / sqrt(D)) v per batch and head, and log-sum-exp."""
    D = q.shape[-1]
    s = np.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(D)
    if causal:
        S = q.shape[2]
        s = np.where(np.tril(np.ones((S, S), dtype=bool)), s, -np.inf)
    m = s.max(axis=-1, keepdims=True)
    p = np.exp(s - m)
    l = p.sum(axis=-1, keepdims=True)
    return np.einsum("bhqk,bhkd->bhqd", p / l, v), (m + np.log(l))[..., 0]


def fav3_check(root, wavecc, arch, causal, B, H, S, seed, extra=()):
    with tempfile.TemporaryDirectory() as t:
        desc, ins, vals = fav3_desc(t, root, arch, causal, B, H, S, 128, seed)
        o_path, lse_path = os.path.join(t, "o.npy"), os.path.join(t, "lse.npy")
        flat = [wavecc, "run", desc]
        for n, p in ins.items():
            flat += ["--in", "%s=%s" % (n, p)]
        flat += ["--out", "o=" + o_path, "--out", "lse=" + lse_path] + list(extra)
        r = subprocess.run(flat, capture_output=True, text=True)
        if r.returncode != 0:
            return False, "wavecc run failed (%d): %s" % (r.returncode, (r.stderr or r.stdout).strip()[-400:])
        o = bf16_value(np.load(o_path))
        lse = np.load(lse_path).astype(np.float64)
    ref, ref_lse = attention_ref(vals["q"], vals["k"], vals["v"], causal)
    err = np.abs(o - ref).max()
    # bf16 output: half an ulp of |o| < 2 is 2^-8; P is rounded to bf16 before the second GEMM
    ok = bool(np.isfinite(o).all()) and err <= 2e-2
    msg = "max |o - ref| %.3g" % err
    if lse.shape == ref_lse.shape and np.isfinite(lse).all():
        # aiter stores the log-sum-exp of the scaled scores in base e
        lerr = np.abs(lse - ref_lse).max()
        msg += ", max |lse - ref| %.3g" % lerr
        ok = ok and lerr <= 1e-3
    else:
        ok = False
        msg += ", lse not finite"
    return ok, msg


I8GEMM_FIELDS = [  # aiter's KernelArgs of csrc/py_itfs_cu/asm_gemm_a8w8.cu, each 16 bytes
    ("ptr_c", "p"), ("ptr_a", "p"), ("ptr_b", "p"), ("ptr_sa", "p"), ("ptr_sb", "p"), ("ptr_bias", "p"),
    ("m", "u"), ("n", "u"), ("k", "u"), ("lda", "u"), ("ldb", "u"), ("ldc", "u"), ("ks", "u"),
]


def shuffle_weight_i8(w):
    """aiter's shuffle_weight(w, layout=(16, 16)) for 1-byte elements: [N, K]
    viewed as (N/16, 16, K/32, 2, 16), permuted to (N/16, K/32, 2, 16, 16)."""
    n, k = w.shape
    return w.reshape(n // 16, 16, k // 32, 2, 16).transpose(0, 2, 3, 1, 4).reshape(n, k).copy()


def i8gemm_desc(out, root, tile, M, N, K, seed=1, pad_a=128, data=True, ks=1):
    """One launch of hsa/gfx942/i8gemm's kernel for `tile` ("112x256", ...):
    C[M, N] bf16 = (A[M, K] i8 . B[N, K] i8^T) * sa[M] * sb[N] + bias[N], A
    with row stride K + pad_a (as aiter's test pads it), B in aiter's 16x16
    shuffled layout. Grid as gemm_a8w8_asm: x = N / tile_n * ks (split-K
    in ks parts), y = ceil(M / tile_m), 256 threads. data=False writes no
    inputs (for `wavecc profile`, which runs on zeros)."""
    d = os.path.join(root, "hsa", "gfx942", "i8gemm")
    rows = [l.strip().split(",") for l in open(os.path.join(d, "i8gemm_bf16_perTokenI8.csv"))][1:]
    r = [r for r in rows if "%sx%s" % (r[0], r[1]) == tile]
    if not r:
        sys.exit("aiter.py: no %s kernel in %s" % (tile, d))
    tm, tn, kname, co = int(r[0][0]), int(r[0][1]), r[0][4], os.path.join(d, r[0][5])
    lda = K + pad_a
    ins = {}
    if not data:
        a = b = sa = sb = bias = None
    else:
        rng = np.random.default_rng(seed)
        a = rng.integers(-128, 128, (M, lda), dtype=np.int8)
        b = rng.integers(-128, 128, (N, K), dtype=np.int8)
        sa = rng.uniform(0.001, 0.02, (M, 1)).astype(np.float32)
        sb = rng.uniform(0.001, 0.02, (1, N)).astype(np.float32)
        bias = (rng.random((1, N)) * 10).astype(np.float32)
        for n, v in (("a", a), ("b", shuffle_weight_i8(b)), ("sa", sa), ("sb", sb), ("bias", bias)):
            ins[n] = os.path.join(out, n + ".npy")
            np.save(ins[n], v)
    bufs = {"ptr_c": ("c", "bf16", [M, N], "write"), "ptr_a": ("a", "i8", [M, lda], "read"),
            "ptr_b": ("b", "i8", [N, K], "read"), "ptr_sa": ("sa", "f32", [M, 1], "read"),
            "ptr_sb": ("sb", "f32", [1, N], "read"), "ptr_bias": ("bias", "f32", [1, N], "read")}
    v = {"m": M, "n": N, "k": K, "lda": lda, "ldb": K, "ldc": 2 * N, "ks": ks}
    args = []
    for i, (f, kind) in enumerate(I8GEMM_FIELDS):
        if f in bufs:
            n, dt, shp, acc = bufs[f]
            args.append({"name": n, "kind": "buffer", "dtype": dt, "shape": shp, "offset": 16 * i, "access": acc})
        else:
            args.append({"name": f, "kind": "scalar", "dtype": "u32", "offset": 16 * i, "value": v[f]})
    desc = {"format": "wavecc-launch/1", "code_object": os.path.abspath(co), "kernel": kname, "arch": "gfx942",
            "workgroup_size": [256, 1, 1], "grid": [N // tn * ks, -(-M // tm), 1], "dynamic_lds_bytes": 0,
            "kernarg_size": 16 * len(I8GEMM_FIELDS), "args": args}
    path = os.path.join(out, "i8gemm.json")
    with open(path, "w") as fh:
        json.dump(desc, fh, indent=1)
    return path, ins, (a[:, :K] if data else None, b, sa, sb, bias)


def i8gemm_check(root, wavecc, tile, M, N, K, seed, extra=()):
    with tempfile.TemporaryDirectory() as t:
        desc, ins, (a, b, sa, sb, bias) = i8gemm_desc(t, root, tile, M, N, K, seed)
        c_path = os.path.join(t, "c.npy")
        cmd = [wavecc, "run", desc]
        for n, p in ins.items():
            cmd += ["--in", "%s=%s" % (n, p)]
        r = subprocess.run(cmd + ["--out", "c=" + c_path] + list(extra), capture_output=True, text=True)
        if r.returncode != 0:
            return False, "wavecc run failed (%d): %s" % (r.returncode, (r.stderr or r.stdout).strip()[-400:])
        c = bf16_value(np.load(c_path))
        races = [l for l in r.stderr.splitlines() if "race" in l]
        warn = "; the emulator reports: %s" % races[0].strip()[:200] if races else ""
    acc = a.astype(np.int64) @ b.astype(np.int64).T  # exact
    ref = acc.astype(np.float64) * sa.astype(np.float64) * sb.astype(np.float64) + bias.astype(np.float64)
    # bf16 output: relative 2^-8 (a truncating conversion) plus f32 rounding of the epilogue
    err = np.abs(c - ref) / (np.abs(ref) + 1e-3)
    ok = bool(np.isfinite(c).all()) and err.max() <= 2 ** -7
    # the f32 epilogue whose bf16 truncation AMD's kernel matches bit for bit:
    # fma(f32(acc) * s1, s2, bias) with the fma rounded once (float64 is exact
    # here but for rare double roundings), s1 = sa (112x256) or sb (128x128)
    best = 0
    for s1, s2 in ((sa, sb), (sb, sa)):
        f32 = ((acc.astype(np.float32) * s1).astype(np.float64) * s2.astype(np.float64) +
               bias.astype(np.float64)).astype(np.float32)
        trunc = ((f32.view(np.uint32) >> 16) << 16).view(np.float32).astype(np.float64)
        best = max(best, int((trunc == c).sum()))
    ok = ok and best == c.size
    return ok, "max relative error %.3g, %d of %d bit-exact to a truncating f32 epilogue%s" % (
        err.max(), best, c.size, warn)


BF16GEMM_FIELDS = [  # aiter's KernelArgs of csrc/py_itfs_cu/asm_gemm_a16w16.cu, each 16 bytes
    ("ptr_D", "p"), ("ptr_C", "p"), ("ptr_A", "p"), ("ptr_B", "p"), ("alpha", "f"), ("beta", "f"),
    ("stride_D0", "u"), ("stride_D1", "u"), ("stride_C0", "u"), ("stride_C1", "u"), ("stride_A0", "u"),
    ("stride_A1", "u"), ("stride_B0", "u"), ("stride_B1", "u"), ("M", "u"), ("N", "u"), ("K", "u"),
    ("splitk", "u"), ("is_out_b16", "u"), ("ptr_Bias", "p"), ("add_bias", "u"), ("ptr_semaphore", "p"),
]


def bf16gemm_check(root, wavecc, kernel, M, N, K, seed, extra=()):
    """hsa/gfx942/bf16gemm's `kernel` (a name of its csv without the aiter
    prefix, B not preshuffled): D[M, N] f32 = A[M, K] bf16 . B[N, K]^T, no
    split-K, no bias, as gemm_a16w16_asm fills the arguments; grid
    (ceil(N / tileN), ceil(M / tileM), 1), 256 threads. Against float64."""
    d = os.path.join(root, "hsa", "gfx942", "bf16gemm")
    rows = [l.strip().split(",") for l in open(os.path.join(d, "bf16gemm_fp32bf16.csv"))][1:]
    r = [r for r in rows if r[1] == kernel + ".co"]
    if not r:
        sys.exit("aiter.py: no %s in %s" % (kernel, d))
    tm, tn = int(r[0][3]), int(r[0][4])
    rng = np.random.default_rng(seed)
    a16, b16 = bf16_bits(rng.standard_normal((M, K), dtype=np.float32)), \
        bf16_bits(rng.standard_normal((N, K), dtype=np.float32))
    v = {"alpha": 1.0, "beta": 0.0, "stride_D0": 4 * N, "stride_C0": 4 * N, "stride_A0": 2 * K,
         "stride_B0": 2 * K, "M": M, "N": N, "K": K, "splitk": 1, "is_out_b16": 0, "add_bias": 0}
    bufs = {"ptr_D": ("d", "f32", [M, N], "write"), "ptr_A": ("a", "bf16", [M, K], "read"),
            "ptr_B": ("b", "bf16", [N, K], "read")}
    args = []
    for i, (f, kind) in enumerate(BF16GEMM_FIELDS):
        if f in bufs:
            n, dt, shp, acc = bufs[f]
            args.append({"name": n, "kind": "buffer", "dtype": dt, "shape": shp, "offset": 16 * i, "access": acc})
        elif f in v:
            args.append({"name": f, "kind": "scalar", "dtype": "f32" if kind == "f" else "u32",
                         "offset": 16 * i, "value": v[f]})
    desc = {"format": "wavecc-launch/1", "code_object": os.path.join(d, r[0][1]), "kernel": r[0][0],
            "arch": "gfx942", "workgroup_size": [256, 1, 1], "grid": [-(-N // tn), -(-M // tm), 1],
            "dynamic_lds_bytes": 0, "kernarg_size": 16 * len(BF16GEMM_FIELDS), "args": args}
    with tempfile.TemporaryDirectory() as t:
        path = os.path.join(t, "bf16gemm.json")
        json.dump(desc, open(path, "w"))
        np.save(os.path.join(t, "a.npy"), a16)
        np.save(os.path.join(t, "b.npy"), b16)
        cmd = [wavecc, "run", path, "--in", "a=%s/a.npy" % t, "--in", "b=%s/b.npy" % t, "--out", "d=%s/d.npy" % t]
        res = subprocess.run(cmd + list(extra), capture_output=True, text=True)
        if res.returncode != 0:
            return False, "wavecc run failed (%d): %s" % (res.returncode, (res.stderr or res.stdout).strip()[-400:])
        out = np.load(os.path.join(t, "d.npy")).astype(np.float64)
    ref = bf16_value(a16) @ bf16_value(b16).T
    err = np.abs(out - ref).max()
    # f32 sums of K products of magnitude ~1: a few K * 2^-24 * sqrt(K) at most
    return bool(np.isfinite(out).all()) and err <= 1e-4 * K ** 0.5, "max |d - ref| %.3g" % err


F4GEMM_FIELDS = [  # aiter's KernelArgs of csrc/py_itfs_cu/asm_gemm_a4w4.cu, 16 bytes each but the last
    ("ptr_D", "p"), ("ptr_C", "p"), ("ptr_A", "p"), ("ptr_B", "p"), ("alpha", "f"), ("beta", "f"),
    ("stride_D0", "u"), ("stride_D1", "u"), ("stride_C0", "u"), ("stride_C1", "u"), ("stride_A0", "u"),
    ("stride_A1", "u"), ("stride_B0", "u"), ("stride_B1", "u"), ("M", "u"), ("N", "u"), ("K", "u"),
    ("ptr_ScaleA", "p"), ("ptr_ScaleB", "p"), ("stride_ScaleA0", "u"), ("stride_ScaleA1", "u"),
    ("stride_ScaleB0", "u"), ("stride_ScaleB1", "u"), ("log2_k_split", "u"),
]
FP4_VALUES = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]  # OCP e2m1, codes 0-7; bit 3 the sign


def shuffle_scale_e8m0(s):
    """aiter's shuffle_scale (e8m0_shuffle) of an [m, n] scale array: padded
    to multiples of (256, 8), viewed as (m/32, 2, 16, n/8, 2, 4), permuted
    to (m/32, n/8, 4, 16, 2, 2)."""
    m, n = s.shape
    p = np.zeros((-(-m // 256) * 256, -(-n // 8) * 8), dtype=np.uint8)
    p[:m, :n] = s
    sm, sn = p.shape
    return p.reshape(sm // 32, 2, 16, sn // 8, 2, 4).transpose(0, 3, 5, 2, 4, 1).reshape(sm, sn).copy()


def f4gemm_check(root, wavecc, M, N, K, seed, extra=()):
    """hsa/gfx950/f4gemm's 256x256 kernel with B not preshuffled (MXFP4):
    D[M, N] bf16 = (A[M, K] fp4 * 2^(sa - 127) per 32 of K) . (B[N, K] ... )^T,
    fp4 packed two per byte (low nibble first), e8m0 scales in aiter's
    shuffled layout; arguments as gemm_a4w4_asm fills them, grid (ceil(N /
    256), ceil(M / 256), 1), 256 threads. Against float64 (exact products)."""
    d = os.path.join(root, "hsa", "gfx950", "f4gemm")
    kname, co = "_ZN5aiter44f4gemm_bf16_per1x32Fp4_noBpreShuffle_256x256E", \
        os.path.join(d, "f4gemm_bf16_per1x32Fp4_noBpreShuffle_256x256.co")
    if not os.path.exists(co):
        sys.exit("aiter.py: no %s" % co)
    rng = np.random.default_rng(seed)
    ca, cb = rng.integers(0, 16, (M, K), dtype=np.uint8), rng.integers(0, 16, (N, K), dtype=np.uint8)
    sa, sb = rng.integers(122, 132, (M, K // 32), dtype=np.uint8), rng.integers(122, 132, (N, K // 32), dtype=np.uint8)
    pack = lambda c: (c[:, 0::2] | (c[:, 1::2] << 4)).astype(np.uint8)
    sa_s, sb_s = shuffle_scale_e8m0(sa), shuffle_scale_e8m0(sb)
    v = {"alpha": 1.0, "beta": 0.0, "stride_D0": N, "stride_C0": N, "stride_A0": K, "stride_B0": K, "M": M, "N": N,
         "K": K, "stride_ScaleA0": sa_s.shape[1], "stride_ScaleB0": sb_s.shape[1], "log2_k_split": 0}
    bufs = {"ptr_D": ("d", "bf16", [M, N], "write"), "ptr_A": ("a", "u8", [M, K // 2], "read"),
            "ptr_B": ("b", "u8", [N, K // 2], "read"), "ptr_ScaleA": ("sa", "u8", list(sa_s.shape), "read"),
            "ptr_ScaleB": ("sb", "u8", list(sb_s.shape), "read")}
    args = []
    for i, (f, kind) in enumerate(F4GEMM_FIELDS):
        if f in bufs:
            n, dt, shp, acc = bufs[f]
            args.append({"name": n, "kind": "buffer", "dtype": dt, "shape": shp, "offset": 16 * i, "access": acc})
        elif f in v:
            args.append({"name": f, "kind": "scalar", "dtype": "f32" if kind == "f" else "u32",
                         "offset": 16 * i, "value": v[f]})
    desc = {"format": "wavecc-launch/1", "code_object": co, "kernel": kname, "arch": "gfx950",
            "workgroup_size": [256, 1, 1], "grid": [-(-N // 256), -(-M // 256), 1], "dynamic_lds_bytes": 0,
            "kernarg_size": 16 * (len(F4GEMM_FIELDS) - 1) + 4, "args": args}
    with tempfile.TemporaryDirectory() as t:
        path = os.path.join(t, "f4gemm.json")
        json.dump(desc, open(path, "w"))
        cmd = [wavecc, "run", path]
        for n, arr in (("a", pack(ca)), ("b", pack(cb)), ("sa", sa_s), ("sb", sb_s)):
            np.save(os.path.join(t, n + ".npy"), arr)
            cmd += ["--in", "%s=%s/%s.npy" % (n, t, n)]
        res = subprocess.run(cmd + ["--out", "d=%s/d.npy" % t] + list(extra), capture_output=True, text=True)
        if res.returncode != 0:
            return False, "wavecc run failed (%d): %s" % (res.returncode, (res.stderr or res.stdout).strip()[-400:])
        out = bf16_value(np.load(os.path.join(t, "d.npy")))
    val = lambda c: np.where(c & 8, -1.0, 1.0) * np.array(FP4_VALUES)[c & 7]
    fa = val(ca) * np.repeat(2.0 ** (sa.astype(np.float64) - 127), 32, axis=1)
    fb = val(cb) * np.repeat(2.0 ** (sb.astype(np.float64) - 127), 32, axis=1)
    ref = fa @ fb.T
    err = np.abs(out - ref) / (np.abs(ref) + 1e-2 * np.abs(ref).max())
    return bool(np.isfinite(out).all()) and err.max() <= 2 ** -7, "max relative error %.3g" % err.max()


def main():
    ap = argparse.ArgumentParser(description="aiter's kernels on wavecc's emulator")
    ap.add_argument("cmd", choices=["check", "desc"])
    ap.add_argument("kernel", nargs="?", default="fav3")
    ap.add_argument("outdir", nargs="?")
    ap.add_argument("--aiter")
    ap.add_argument("--wavecc", default=os.path.join(os.environ.get("WAVECC_BUILD", "build"), "wavecc"))
    ap.add_argument("--arch", help="desc: gfx942 (default) or gfx950; check: only this one's FA v3")
    ap.add_argument("--causal", action="store_true")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("-B", type=int, default=1)
    ap.add_argument("-H", type=int, default=1)
    ap.add_argument("-S", type=int, default=256)
    ap.add_argument("-D", type=int, default=128)
    a = ap.parse_args()
    root = aiter_dir(a.aiter)
    if root is None:
        print("SKIP: aiter's kernels: set WAVECC_AITER to aiter's repository folder (github.com/ROCm/aiter)")
        return 0
    if a.cmd == "desc":
        if not a.outdir:
            ap.error("desc needs OUTDIR")
        os.makedirs(a.outdir, exist_ok=True)
        print(fav3_desc(a.outdir, root, a.arch or "gfx942", a.causal, a.B, a.H, a.S, a.D)[0])
        return 0
    # the emulator's strict modes (docs/emulator.md): late memory, seeded random wave
    # order, reversed workgroups, garbage-filled registers and LDS; races reported
    strict = ["--memory", "late", "--wave-order", "random", "--wg-order", "reverse", "--fill", "garbage",
              "--races"]
    # and in the cycle model's wave order under late memory (the order the model times)
    model = ["--memory", "late", "--wave-order", "model"]
    cases = [(False, 1, 1, 256, ()), (True, 1, 1, 512, ()), (False, 1, 2, 512, strict), (False, 1, 2, 512, model)]
    if not a.quick:
        cases += [(False, 2, 2, 384, ()), (True, 1, 8, 512, strict)]
    bad = 0
    # AMD's 112x256 kernel refills an LDS staging buffer with no barrier after
    # the reads of the last round: the emulator's race report must name it
    # (a warning: foreign code objects are not failed for races); 128x128 has none
    # (112x256 also in the cycle model's wave order, where it is bit-exact too:
    # the waves read right after the barrier, before any refills the buffer)
    for tile, M, N, K, race, order in [("112x256", 224, 512, 512, True, "interleave"),
                                       ("112x256", 224, 512, 512, True, "model"),
                                       ("128x128", 200, 256, 384, False, "interleave")]:
        ok, msg = i8gemm_check(root, a.wavecc, tile, M, N, K, M + N + K, ["--races", "--wave-order", order])
        ok = ok and ("races between" in msg) == race
        print("%s: int8 GEMM %s (bf16 out, per-token scales, bias) M=%d N=%d K=%d, wave order %s: %s" %
              ("PASS" if ok else "FAIL", tile, M, N, K, order, msg))
        bad += not ok
    for kernel, M, N, K in [("bf16gemm_fp32bf16_tn_64x64_pf3_splitk", 100, 128, 256)]:
        ok, msg = bf16gemm_check(root, a.wavecc, kernel, M, N, K, M + N + K)
        print("%s: bf16 GEMM %s (f32 out) M=%d N=%d K=%d: %s" % ("PASS" if ok else "FAIL", kernel, M, N, K, msg))
        bad += not ok
    for M, N, K in [(256, 256, 512)]:
        ok, msg = f4gemm_check(root, a.wavecc, M, N, K, M + N + K)
        print("%s: MXFP4 GEMM gfx950 256x256 (bf16 out, e8m0 scales per 32) M=%d N=%d K=%d: %s" %
              ("PASS" if ok else "FAIL", M, N, K, msg))
        bad += not ok
    for arch in [a.arch] if a.arch else ["gfx942", "gfx950"]:
        for causal, B, H, S, extra in cases:
            ok, msg = fav3_check(root, a.wavecc, arch, causal, B, H, S, B * 100 + H * 10 + S, extra)
            print("%s: FA v3 fwd %s hd128 bf16%s B=%d H=%d S=%d%s: %s" %
                  ("PASS" if ok else "FAIL", arch, " causal" if causal else "", B, H, S,
                   (" (emulator: %s)" % " ".join(extra)) if extra else "", msg))
            bad += not ok
    if not a.quick:  # every gfx942 code object listed with no encoding unknown to the emulator
        cos = sorted(os.path.join(dp, f) for dp, _, fs in os.walk(os.path.join(root, "hsa", "gfx942"))
                     for f in fs if f.endswith(".co"))
        unknown = [c for c in cos if subprocess.run([a.wavecc, "info", "--disasm", c],
                                                    capture_output=True).returncode != 0]
        print("%s: %d gfx942 code objects listed by wavecc info --disasm, %d with encodings the emulator "
              "does not know%s" % ("FAIL" if unknown or not cos else "PASS", len(cos), len(unknown),
                                   (": " + ", ".join(unknown[:5])) if unknown else ""))
        bad += bool(unknown) or not cos
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
