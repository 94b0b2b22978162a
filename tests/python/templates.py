"""templates.py — wavecc.wave_lang.kernel.wave.templates: each template traced at a Wave test's parameters,
compiled, run on the emulator and compared with a numpy reference (Wave's tolerances where its test has them).

Wave's tests call the templates the way these functions do (the test each follows is named); tensors are numpy
arrays (Wave makes torch tensors on the GPU). tests() gives the fast tier's share (FAST), slow_tests() the other
small cases and Wave's larger shapes; `python3 templates.py TEXT...` runs the cases whose names contain a TEXT.
"""
import math

import numpy as np

import wavecc.wave_lang.kernel.lang as tkl
import wavecc.wave_lang.kernel.wave as tkw
from wavecc.wave_lang.kernel.wave.compile import WaveCompileOptions, wave_compile
from wavecc.wave_lang.kernel.wave.constraints import MMAType
from wavecc.wave_lang.kernel.wave.utils.run_utils import set_default_run_config
from wavecc.wave_lang.kernel.wave.scheduling.schedule import SchedulingType

RNG = np.random.default_rng(7)


def randn(*shape, dtype=np.float16):
    return RNG.standard_normal(shape).astype(dtype)


def close(got, want, rtol=1e-3, atol=1e-3, what=""):
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    if not np.allclose(got, want, rtol=rtol, atol=atol):
        i = np.unravel_index(np.argmax(np.abs(got - want)), got.shape)
        raise AssertionError("%s: max |diff| %g at %s (got %g, want %g)" % (
            what, np.abs(got - want).max(), i, got[i], want[i]))


def compile_(kernel, hyperparams, dynamic_symbols=(), schedule=SchedulingType.NONE, **kw):
    options = WaveCompileOptions(subs=hyperparams, canonicalize=True, dynamic_symbols=list(dynamic_symbols),
                                 schedule=schedule, **kw)
    options = set_default_run_config(options)
    return wave_compile(options, kernel)


# ---- gemm.py (wave_gemm_test.py) ----

def _gemm_ref(a, b):
    return a.astype(np.float32) @ b.astype(np.float32).T


def gemm(shape=(64, 64, 64), dynamic=False, mfma=MMAType.F32_16x16x16_F16, schedule=SchedulingType.NONE,
         block_shape=None):
    """testPureGemm: get_gemm_kernel, static or dynamic dims."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates.gemm import get_gemm_kernel
        kernel, hp, dyn = get_gemm_kernel(shape, dynamic, mfma, np.float16, block_shape=block_shape)
        g = compile_(kernel, hp, dyn, schedule)
        a, b = randn(shape[0], shape[2]), randn(shape[1], shape[2])
        c = np.zeros((shape[0], shape[1]), np.float32)
        g(a, b, c)
        close(c, _gemm_ref(a, b), 1e-3, 1e-2, "gemm")
    return run


def gemm_transpose_a_b(shape=(64, 64, 64)):
    """testGemmTransposeAB-like: A[K, M], B[K, N] read through IteratorBindings."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates.gemm import get_gemm_kernel_transpose_a_b
        kernel, hp, dyn = get_gemm_kernel_transpose_a_b(shape, False, MMAType.F32_16x16x16_F16, np.float16)
        g = compile_(kernel, hp, dyn)
        a, b = randn(shape[2], shape[0]), randn(shape[2], shape[1])
        c = np.zeros((shape[0], shape[1]), np.float32)
        g(a, b, c)
        close(c, a.astype(np.float32).T @ b.astype(np.float32), 1e-3, 1e-2, "gemm_transpose_a_b")
    return run


def splitk_gemm(shape=(64, 64, 256), num_splits=2, block_shape=(32, 32, 32)):
    """testSplitKGemm: get_splitk_gemm_kernel, C zeroed, partial products added atomically."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates.gemm import get_splitk_gemm_kernel
        kernel, hp = get_splitk_gemm_kernel(shape, num_splits=num_splits, mfma_variant=MMAType.F32_16x16x16_F16,
                                            threads_per_wave=64, block_shape=block_shape)
        g = compile_(kernel, hp)
        a, b = randn(shape[0], shape[2]), randn(shape[1], shape[2])
        c = np.zeros((shape[0], shape[1]), np.float32)
        g(a, b, c)
        close(c, _gemm_ref(a, b), 1e-3, 1e-2, "splitk_gemm")
    return run


def persistent_gemm(shape=(256, 256, 64), block_shape=(64, 64, 32), num_ctas=3, reordering=False, wave_default=False):
    """test_persistent_gemm / test_persistent_reordering_gemm: a fixed grid walking the tiles."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates import gemm as t
        if reordering:  # test_persistent_reordering_gemm: Wave's tiles, one per workgroup
            kernel, hp = t.get_persistent_reordering_kernel(shape=shape, mfma_variant=MMAType.F32_16x16x16_F16,
                                                            threads_per_wave=64, waves_per_block=(2, 2))
        elif wave_default:  # test_persistent_gemm: Wave's tiles and 304 workgroups
            kernel, hp = t.get_persistent_gemm_kernel(shape=shape, mfma_variant=MMAType.F32_16x16x16_F16,
                                                      threads_per_wave=64, waves_per_block=(4, 1))
        else:
            kernel, hp = t.get_persistent_gemm_kernel(shape, MMAType.F32_16x16x16_F16, block_shape=block_shape,
                                                      waves_per_block=(2, 2), num_ctas=num_ctas)
        g = compile_(kernel, hp)
        a, b = randn(shape[0], shape[2]), randn(shape[1], shape[2])
        c = np.zeros((shape[0], shape[1]), np.float32)
        g(a, b, c)
        close(c, _gemm_ref(a, b), 1e-3, 1e-2, "persistent_gemm")
    return run


def reordered_gemm(shape=(256, 256, 256), blocks=(128, 256, 64), group=16):
    """testReorderedGemm (reordered_gemm_test.py): Wave's tiles and group size, prefetch schedule."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates.reordered_gemm import get_reordered_matmul
        kernel, hp = get_reordered_matmul(*shape, *blocks, group, MMAType.F32_16x16x16_F16)
        g = compile_(kernel, hp, schedule=SchedulingType.PREFETCH, use_buffer_ops=True)
        a, b = randn(shape[0], shape[2]), randn(shape[1], shape[2])
        c = np.zeros((shape[0], shape[1]), np.float32)
        g(a, b, c)
        close(c, _gemm_ref(a, b), 1e-3, 1e-2, "reordered_gemm")
    return run


def dist_gemm(shape=(128, 128, 64), devices=(2, 2)):
    """testDistGemm (dist_gemm_test.py): one launch computes all the devices' tiles."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates.dist_gemm import get_dist_gemm_kernel
        kernel, hp, dyn = get_dist_gemm_kernel(shape, False, MMAType.F32_16x16x16_F16, np.float16, *devices)
        g = compile_(kernel, hp, dyn)
        a, b = randn(shape[0], shape[2]), randn(shape[1], shape[2])
        c = np.zeros((shape[0], shape[1]), np.float32)
        g(a, b, c)
        close(c, _gemm_ref(a, b), 1e-3, 1e-2, "dist_gemm")
    return run


def moe_kernels(m=64, k=128, n=192):
    """moe_test.py's GEMM and silu_and_mul kernels (templates.moe), f16."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates.moe import get_gemm_kernel, get_silu_and_mul_kernel
        kernel, hp = get_gemm_kernel(m, k, n, MMAType.F32_16x16x16_F16, tkl.f16)
        a, b = randn(m, k), randn(n, k)
        c = np.zeros((m, n), np.float32)
        compile_(kernel, hp)(a, b, c)
        close(c, _gemm_ref(a, b), 1e-3, 1e-2, "moe gemm")
        kernel, hp = get_silu_and_mul_kernel(m, n, tkl.f16)
        x1, x2 = randn(m, n), randn(m, n)
        x1 = (np.sign(x1) * (np.abs(x1) + 0.5)).astype(np.float16)  # away from Wave's pole at 0 (c = -1)
        out = np.zeros((m, n), np.float16)
        compile_(kernel, hp)(x1, x2, out)
        x = x1.astype(np.float32)
        want = (-1.0 / (-1.0 + np.exp2(-x))) * x * x2.astype(np.float32)  # Wave's constants, both -1
        close(out, want, 1e-2, 1e-2, "moe silu_and_mul")
    return run


def scaled_gemm(shape=(256, 256, 256)):
    """testScaledGemmMXFP4-like (wave_gemm_mxfp_test.py): get_scaled_gemm_kernel on gfx950 against
    mxfp_utils.torchScaledGemmMXFP4 (numpy), inputs from generate_gemm_afp4wfp4_inputs."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates.gemm import get_scaled_gemm_kernel
        from wavecc.wave_lang.kernel.wave.constraints import ScaledMMAType
        from wavecc.wave_lang.kernel.wave.utils.mxfp_utils import (generate_gemm_afp4wfp4_inputs,
                                                                  torchScaledGemmMXFP4)
        x, w, xs, ws = generate_gemm_afp4wfp4_inputs(shape)
        kernel, hp = get_scaled_gemm_kernel(shape, ScaledMMAType.F32_16x16x128_F8F6F4)
        g = compile_(kernel, hp, target="gfx950")
        out = np.zeros((shape[0], shape[1]), np.float32)
        g(x, xs, np.ascontiguousarray(w.T), ws, out)
        close(out, torchScaledGemmMXFP4(x, w, xs, ws), 1e-5, 1e-4, "scaled mxfp4 gemm")
    return run


def broadcast_scale_gemm(shape=(256, 256, 256)):
    """test_kernels.get_broadcasted_scale_gemm_mxfp4: one A scale per row, broadcast over K/32 (gfx950)."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates.test_kernels import get_broadcasted_scale_gemm_mxfp4
        from wavecc.wave_lang.kernel.wave.constraints import ScaledMMAType
        from wavecc.wave_lang.kernel.wave.utils.mxfp_utils import (generate_gemm_afp4wfp4_inputs,
                                                                  torchScaledGemmMXFP4)
        x, w, xs, ws = generate_gemm_afp4wfp4_inputs(shape)
        row_scale = np.ascontiguousarray(xs[:, 0])
        kernel, hp = get_broadcasted_scale_gemm_mxfp4(shape, ScaledMMAType.F32_16x16x128_F8F6F4)
        out = np.zeros((shape[0], shape[1]), np.float32)
        compile_(kernel, hp, target="gfx950")(x, row_scale, np.ascontiguousarray(w.T), ws, out)
        want = torchScaledGemmMXFP4(x, w, np.repeat(row_scale[:, None], xs.shape[1], axis=1), ws)
        close(out, want, 1e-5, 1e-4, "broadcast-scale mxfp4 gemm")
    return run


def tagged_mxfp4_gemm(shape=(512, 512, 512), block=(256, 256, 256), group=32):
    """examples/python/7_mxfp_gemm.py test_basic_mxfp_gemm (gfx950), 8 waves, Wave's options."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates import get_tagged_mxfp4_gemm
        from wavecc.wave_lang.kernel.wave.utils.mxfp_utils import (generate_gemm_afp4wfp4_inputs,
                                                                  torchScaledGemmMXFP4)
        gemm, options = get_tagged_mxfp4_gemm(shape, block, num_waves=8, group_size_n=group)
        options.schedule = None
        options.target = "gfx950"
        g = wave_compile(set_default_run_config(options), gemm)
        x, w, xs, ws = generate_gemm_afp4wfp4_inputs(shape)
        out = np.zeros((shape[0], shape[1]), np.float32)
        g(x, xs, np.ascontiguousarray(w.T), ws, out)
        close(out, torchScaledGemmMXFP4(x, w, xs, ws), 1e-5, 1e-4, "tagged mxfp4 gemm")
    return run


def streamk_rejected():
    from wavecc.wave_lang.kernel.wave.templates.gemm import get_streamk_gemm_kernel
    try:
        get_streamk_gemm_kernel((256, 256, 256), MMAType.F32_16x16x16_F16)
    except NotImplementedError as e:
        assert "stream-K" in str(e), e
        return
    raise AssertionError("get_streamk_gemm_kernel did not raise")


def while_carried_condition():
    """The loop form of the speculative decoding and stream-K templates that compiles: tkw.iterate whose
    condition names a carried value (GET_ITER_ARG), here each lane's Collatz steps up to a bound, against a
    walk in Python."""
    import sympy
    from wavecc.wave_lang.kernel.lang.global_symbols import GET_ITER_ARG, GLOBAL_ADDRESS_SPACE
    N, BLOCK_N, MAX_STEPS = tkl.sym.N, tkl.sym.BLOCK_N, tkl.sym.MAX_STEPS
    STEP = sympy.Symbol("STEP")
    constraints = [tkw.HardwareConstraint(threads_per_wave=64, vector_shapes={N: BLOCK_N, STEP: 0}),
                   tkw.WorkgroupConstraint(N, BLOCK_N, 0), tkw.WaveConstraint(N, BLOCK_N),
                   tkw.TilingConstraint(STEP)]

    @tkw.wave(constraints)
    def collatz(a: tkl.Memory[N, GLOBAL_ADDRESS_SPACE, tkl.i32], steps: tkl.Memory[N, GLOBAL_ADDRESS_SPACE, tkl.i32]):
        x0 = tkw.read(a)
        zero = tkl.Register[N, tkl.i32](0)

        @tkw.iterate(STEP, start=tkw.scalar(0, tkl.i32), condition=(STEP < MAX_STEPS) & (GET_ITER_ARG(0) > 1),
                     init_args=[x0, zero])
        def loop(x, cnt):
            even = tkw.apply_expr(x, lambda v: sympy.Eq(sympy.Mod(v, 2), 0))
            nx = tkw.select(even, tkw.apply_expr(x, lambda v: sympy.floor(v / 2)),
                            tkw.apply_expr(x, lambda v: 3 * v + 1))
            tkw.set_symbol(STEP, tkw.scalar(STEP, tkl.i32) + tkw.scalar(1, tkl.i32))
            return nx, cnt + tkl.Register[N, tkl.i32](1)

        x_end, cnt_end = loop
        tkw.write(cnt_end, steps)

    g = compile_(collatz, {N: 300, BLOCK_N: 64, MAX_STEPS: 100})
    a = (np.arange(300) - 20).astype(np.int32)
    steps = np.zeros(300, np.int32)
    g(a, steps)
    want = []
    for v in a:
        x, c = int(v), 0
        while c < 100 and x > 1:
            x, c = (x // 2 if x % 2 == 0 else 3 * x + 1), c + 1
        want.append(c)
    assert (steps == np.array(want)).all(), (steps, want)
    assert steps.max() == 100 and steps.min() == 0


# ---- speculative_decoding.py (speculative_decode_test.py) ----

def _spec_inputs(random_tree, seed, bs=2, nd=6, voc=64):
    """testReferenceSpeculativeDecoding's inputs (its draft trees, candidates and peaked target rows; the coins
    from a seeded generator in place of torch.rand), or a random draft tree per row with random rows."""
    rng = np.random.default_rng(seed)
    cand = np.array([[0, 1, 2, 3, 4, 5], [7, 8, 9, 10, 11, 12]], np.int32)
    ridx = np.array([[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11]], np.int32)
    rnt = np.array([[1, 2, -1, 4, 5, -1], [4, 2, 3, -1, 5, -1]], np.int32)
    rns = np.array([[-1, 3, -1, -1, -1, -1], [-1, -1, -1, -1, 1, -1]], np.int32)
    logits = np.ones((bs, nd, voc))
    for b, n, v in ((0, 0, 3), (0, 3, 4), (0, 4, 5), (1, 0, 11), (1, 4, 12)):
        logits[b, n, v] = 10
    logits[(logits < 10).all(-1), 18] = 10
    e = np.exp(logits / 0.01 - (logits / 0.01).max(-1, keepdims=True))
    tp = (e / e.sum(-1, keepdims=True)).astype(np.float32)
    if random_tree:
        rnt[:], rns[:] = -1, -1
        cand = rng.integers(0, voc, (bs, nd)).astype(np.int32)
        for b in range(bs):
            last = [-1] * nd
            for n in range(1, nd):
                p = int(rng.integers(0, n))
                if last[p] < 0:
                    rnt[b, p] = n
                else:
                    rns[b, last[p]] = n
                last[p] = n
        tp = rng.integers(0, 1000, (bs, nd, voc)) * np.where(rng.integers(0, 3, (bs, nd, voc)) > 0, 1.0, 0.05)
        tp = (tp / tp.sum(-1, keepdims=True)).astype(np.float32)
    us = rng.random((bs, nd), dtype=np.float32)
    usf = rng.random(bs, dtype=np.float32)
    return cand, ridx, rnt, rns, tp, us, usf


def _spec_reference(cand, ridx, rnt, rns, tp, us, ns, ts, ta, seq):
    """Wave's reference_sampling_kernel with the kernel's final rule (the first token whose running sum of
    relu(target - draft) is positive, else the last): predicts, accept_index, accept_token_num, draft_probs."""
    bs, nd, voc = tp.shape
    pred, acc_idx = np.full(seq, -1, np.int32), np.full((bs, ns), -1, np.int32)
    num, dp = np.zeros(bs, np.int32), np.zeros_like(tp)
    for b in range(bs):
        prob_acc, coin, off, cur, n_acc = np.float32(0), us[b, 0], 0, 0, 0
        last = acc_idx[b, 0] = ridx[b, 0]
        for _ in range(1, ns):
            cur = rnt[b, cur]
            while cur >= 0:
                tok, single = cand[b, cur], tp[b, off, cand[b, cur]]
                prob_acc = np.float32(prob_acc + single)
                if coin <= np.float32(prob_acc / np.float32(ta)) or single >= ts:
                    prob_acc, off, coin = np.float32(0), cur, us[b, cur]
                    pred[last] = tok
                    n_acc += 1
                    acc_idx[b, n_acc] = last = ridx[b, cur]
                    break
                dp[b, cur, tok] = tp[b, cur, tok]
                cur = rns[b, cur]
            if cur < 0:
                break
        num[b] = n_acc
        d = tp[b, off] - (dp[b, off] if n_acc != ns - 1 else 0)
        pos = np.nonzero(d > 0)[0]
        pred[last] = pos[0] if len(pos) else voc - 1
    return pred, acc_idx, num, dp


def speculative_sampling(ts=1.0, ta=1.0, random_tree=False, seed=0):
    """testReferenceSpeculativeDecoding: get_speculative_sampling_kernel traced (its inner loop over the draft
    tree's siblings with max_trips NUM_DRAFT_TOKENS), run against the reference above; with Wave's inputs also
    the values Wave's test expects."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates.speculative_decoding import get_speculative_sampling_kernel
        bs, nd, ns, voc, seq = 2, 6, 4, 64, 12
        kernel, hp, dyn = get_speculative_sampling_kernel(bs, ns, ta, ts, nd, voc, seq)
        g = compile_(kernel, hp, dyn)
        cand, ridx, rnt, rns, tp, us, usf = _spec_inputs(random_tree, seed)
        dp = np.zeros_like(tp)
        pred, acc_idx, num = np.full(seq, -1, np.int32), np.full((bs, ns), -1, np.int32), np.zeros(bs, np.int32)
        g(us, usf, tp, dp, cand, ridx, rnt, rns, ns, pred, num, acc_idx)
        w_pred, w_idx, w_num, w_dp = _spec_reference(cand, ridx, rnt, rns, tp, us, ns, ts, ta, seq)
        for what, got, want in (("predicts", pred, w_pred), ("accept_index", acc_idx, w_idx),
                                ("accept_token_num", num, w_num), ("draft_probs", dp, w_dp)):
            assert (got == want).all(), (what, got, want)
        if not random_tree:  # the values Wave's test expects, thresholds (1, 1) and (0, 0)
            w = {1.0: ([3, -1, -1, 4, 5, 18, 11, -1, -1, -1, 12, 18], [[0, 3, 4, 5], [6, 10, 11, -1]], [3, 2]),
                 0.0: ([1, 2, 18, -1, -1, -1, 11, -1, -1, -1, 12, 18], [[0, 1, 2, -1], [6, 10, 11, -1]], [2, 2])}[ts]
            assert (pred.tolist(), acc_idx.tolist(), num.tolist()) == w, (pred, acc_idx, num)
    return run


# ---- vanilla_attention.py (attention/vanilla_attention_test.py) ----

def _attention_ref(q, k, v, causal=False, window=-1, row_mask=None):
    """softmax(q k^T / sqrt(d)) v over the last two dims of [..., S, D] arrays, in float64."""
    q, k, v = (x.astype(np.float64) for x in (q, k, v))
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    m, n = s.shape[-2:]
    if causal:
        i, j = np.arange(m)[:, None], np.arange(n)[None, :]
        keep = j <= i
        if window > 0:
            keep &= i - j <= window
        s = np.where(keep, s, -np.inf)
    if row_mask is not None:
        s = np.where(row_mask[..., :, None], -np.inf, s)
    mx = np.max(s, axis=-1, keepdims=True)
    mx = np.where(np.isfinite(mx), mx, 0)
    p = np.exp(s - mx)
    tot = p.sum(-1, keepdims=True)
    return np.where(tot > 0, (p @ v) / np.where(tot > 0, tot, 1), 0)


def vanilla_attention(mfma=(MMAType.F32_16x16x16_F16,) * 2, causal=False, window=-1, v_t=False, dyn=False,
                      heads=2, m=128, k2=128, d=64, dv=64):
    def run():
        from wavecc.wave_lang.kernel.wave.templates.attention_common import AttentionShape
        from wavecc.wave_lang.kernel.wave.templates.vanilla_attention import get_vanilla_attention_kernel
        shape = AttentionShape(num_query_heads=heads, num_kv_heads=heads, query_seq_len=m, head_size_kv=dv,
                               head_size=d, kv_seq_len=k2)
        kernel, hp, dsyms = get_vanilla_attention_kernel(shape, mfma, dyn, is_causal=causal, is_v_transposed=v_t,
                                                        sliding_window_size=window)
        g = compile_(kernel, hp, dsyms)
        q, k, v = randn(heads, m, d), randn(heads, k2, d), randn(heads, k2, dv)
        out = np.zeros((heads, m, dv), np.float32)
        g(q, k, np.ascontiguousarray(np.swapaxes(v, 1, 2)) if v_t else v, out)
        close(out, _attention_ref(q, k, v, causal, window), 1e-3, 1e-3, "vanilla_attention")
    return run


def bxsd_attention(layout, causal=False, custom_mask=False, heads=2, m=128, k2=128, d=64, dv=64, batch=1):
    """test_bshd_attention / test_bhsd_attention (and the custom mask)."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates.attention_common import AttentionShape
        from wavecc.wave_lang.kernel.wave.templates import vanilla_attention as t
        shape = AttentionShape(num_query_heads=heads, num_kv_heads=heads, query_seq_len=m, head_size_kv=dv,
                               head_size=d, kv_seq_len=k2, batch_size=batch)
        mma = (MMAType.F32_16x16x16_F16,) * 2
        if layout == "bshd":
            kernel, hp, dsyms = t.get_bshd_attention_kernel(shape, mma, False, is_causal=causal,
                                                            is_custom_mask=custom_mask)
        else:
            kernel, hp, dsyms = t.get_bhsd_attention_kernel(shape, mma, False, is_causal=causal)
        b = hp[tkl.sym.B]
        g = compile_(kernel, hp, dsyms)
        q, k, v = randn(b, heads, m, d), randn(b, heads, k2, d), randn(b, heads, k2, dv)
        row_mask = None
        args = []
        if layout == "bshd":
            args = [np.ascontiguousarray(np.swapaxes(x, 1, 2)) for x in (q, k, v)]
        else:
            args = [q, k, v]
        if custom_mask:
            mask = (RNG.random((b, m)) < 0.3).astype(np.int8)
            args.append(mask)
            row_mask = np.broadcast_to(mask.astype(bool)[:, None, :], (b, heads, m))
        want = _attention_ref(q.astype(np.float16) * np.float16(1), k, v, causal, row_mask=row_mask)
        out = np.zeros((b, m, heads, dv) if layout == "bshd" else (b, heads, m, dv), np.float32)
        g(*args, out)
        if layout == "bshd":
            out = np.swapaxes(out, 1, 2)
        close(out, want, 2e-2, 2e-2, layout + " attention")  # q is scaled in f16 first
    return run


# ---- test_kernels.py (e2e/test_elementwise.py, wave_gemm_test.py's manual schedules) ----

def broadcast_scaled_add(shape=(256, 256)):
    def run():
        from wavecc.wave_lang.kernel.wave.templates.test_kernels import get_broadcast_scaled_add
        from wavecc.wave_lang.kernel.wave.utils.torch_utils import device_randn, device_zeros
        kernel, hp = get_broadcast_scaled_add(shape)
        half = (shape[0], shape[1] // 2)
        a = device_randn(half, dtype=np.float16)
        b = device_randn((half[0]), dtype=np.float16)
        c = device_zeros(half, dtype=np.float16)
        options = set_default_run_config(WaveCompileOptions(subs=hp, canonicalize=True, use_buffer_ops=True))
        wave_compile(options, kernel)(a, b, c)
        close(c, a + b.reshape(-1, 1), 1e-3, 1e-3, "broadcast_scaled_add")
    return run


def scheduled_gemm(which, shape):
    def run():
        from wavecc.wave_lang.kernel.wave.templates import test_kernels as t
        kernel, schedule, options = getattr(t, "get_gemm_%s_kernel_and_schedule" % which)(
            shape=shape, mfma_variant=MMAType.F32_16x16x16_F16, compile_to_mlir=False)
        g = wave_compile(set_default_run_config(options), kernel, schedule)
        a, b = randn(shape[0], shape[2]), randn(shape[1], shape[2])
        c = randn(shape[0], shape[1], dtype=np.float32)
        g(a, b, c)
        close(c, _gemm_ref(a, b), 1e-3, 1e-2, which)
    return run


# ---- conv.py (e2e/test_conv.py test_igemm_conv) ----

def _conv_ref(x, we, stride):
    """out[n, f, i, j] = sum over c, a, b of x[n, c, i*stride + a, j*stride + b] we[f, c, a, b]."""
    n, c, h, w = x.shape
    nf, _, hf, wf = we.shape
    ho, wo = (h - hf) // stride + 1, (w - wf) // stride + 1
    out = np.zeros((n, nf, ho, wo))
    x, we = x.astype(np.float64), we.astype(np.float64)
    for a in range(hf):
        for b in range(wf):
            patch = x[:, :, a:a + stride * (ho - 1) + 1:stride, b:b + stride * (wo - 1) + 1:stride]
            out += np.einsum("nchw,fc->nfhw", patch, we[:, :, a, b])
    return out


def igemm_conv(n, h, w, c, hf, wf, nf, stride, layout, space="shared"):
    def run():
        from wavecc.wave_lang.kernel.wave.templates.conv import get_igemm_conv2d
        from wavecc.wave_lang.kernel.lang.global_symbols import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE
        from wavecc.wave_lang.kernel.wave.utils.general_utils import get_default_scheduling_params
        x, we = randn(n, c, h, w), randn(nf, c, hf, wf)
        want = _conv_ref(x, we, stride)
        if layout == "nhwc_hwcf":
            x, we = np.ascontiguousarray(x.transpose(0, 2, 3, 1)), np.ascontiguousarray(we.transpose(2, 3, 1, 0))
            want = want.transpose(0, 2, 3, 1)
        conv, hp = get_igemm_conv2d(layout=layout, n=n, h=h, w=w, c=c, hf=hf, wf=wf, nf=nf, stride=stride,
                                    input_dtype=tkl.f16, output_dtype=tkl.f32,
                                    mem_space=SHARED_ADDRESS_SPACE if space == "shared" else GLOBAL_ADDRESS_SPACE)
        hp.update(get_default_scheduling_params())
        options = set_default_run_config(WaveCompileOptions(subs=hp, canonicalize=True, use_buffer_ops=True))
        g = wave_compile(options, conv)
        out = np.zeros(want.shape, np.float32)
        g(x, we, out)
        close(out, want, 1e-3, 1e-3, "igemm_conv " + layout)
    return run


# ---- decode_attention.py (attention/decode_attention_test.py testFlashDecoding) ----

def flash_decoding(shape=(8, 128, 128, 64, 256), mfma=MMAType.F32_16x16x16_F16, dyn=False):
    def run():
        from wavecc.wave_lang.kernel.wave.templates.decode_attention import get_decode_attention_kernels
        from wavecc.wave_lang.kernel.wave.utils.general_utils import get_default_scheduling_params
        p0, p1, hp0, hp1, dyn0, dyn1, u = get_decode_attention_kernels(shape, mfma, dyn)
        hp0.update(get_default_scheduling_params())
        hp1.update(get_default_scheduling_params())
        b, m, n, k1, k2 = shape
        q, k, v = randn(b, m, k1), randn(b, k2, k1), randn(b, k2, n)
        part = np.zeros((u, b, n, m), np.float32)
        part_max = np.zeros((u, b, m), np.float32)
        out = np.zeros((b, m, n), np.float32)
        g0 = compile_(p0, hp0, dyn0)
        g0((q * np.float16(math.sqrt(1.0 / k1) * 1.44269504089)).astype(np.float16), k,
           np.ascontiguousarray(v.transpose(0, 2, 1)), part, part_max)
        g1 = compile_(p1, hp1, dyn1)
        g1(part, part_max, out)
        close(out, _attention_ref(q, k, v), 1e-3, 1e-3, "flash decoding")
    return run


def gqa_flash_decoding(seqs=2, hq=64, hkv=2, kv_len=500, d=64, dv=64, splits=8,
                       mfma=(MMAType.F32_16x16x16_F16,) * 2):
    """testGqaFlashDecoding: phase 0 per split and head block (apply_fn picks the kv head), phase 1 merges."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates.attention_common import AttentionShape
        from wavecc.wave_lang.kernel.wave.templates.gqa_decode_attention import get_gqa_decode_attention_kernels
        from wavecc.wave_lang.kernel.wave.utils.general_utils import get_default_scheduling_params
        shape = AttentionShape(num_seqs=seqs, num_query_heads=hq, num_kv_heads=hkv, query_seq_len=1,
                               kv_seq_len=kv_len, head_size_kv=dv, head_size=d)
        k_shape, v_shape = (seqs, kv_len, hkv, d), (seqs, kv_len, hkv, dv)
        p0, p1, hp0, hp1 = get_gqa_decode_attention_kernels(shape, mfma, splits, k_shape, v_shape)
        hp0.update(get_default_scheduling_params())
        hp1.update(get_default_scheduling_params())
        q, k, v = randn(seqs, hq, d), randn(*k_shape), randn(*v_shape)
        part = np.zeros((splits, seqs, dv, hq), np.float32)
        part_max = np.zeros((splits, seqs, hq), np.float32)
        out = np.zeros((seqs, hq, dv), np.float16)
        compile_(p0, hp0)(q, k, v, part, part_max)
        compile_(p1, hp1)(part, part_max, out)
        kh = np.repeat(k.transpose(0, 2, 1, 3), hq // hkv, axis=1)  # [seqs, hq, kv_len, d]
        vh = np.repeat(v.transpose(0, 2, 1, 3), hq // hkv, axis=1)
        want = _attention_ref(q[:, :, None, :], kh, vh)[:, :, 0, :]
        close(out, want, 1e-2, 1e-2, "gqa flash decoding")
    return run


def gqa_bshd_attention(causal=False, window=-1, seqs=1, hq=4, hkv=2, nq=128, nkv=160, d=64, dv=128,
                       mfma=(MMAType.F32_16x16x16_F16,) * 2):
    """gqa_vanilla_attention_test.py: query head h attends kv head h // (hq / hkv)."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates.attention_common import AttentionShape
        from wavecc.wave_lang.kernel.wave.templates.gqa_vanilla_attention import get_gqa_bshd_attention_kernel
        shape = AttentionShape(num_seqs=seqs, num_query_heads=hq, num_kv_heads=hkv, query_seq_len=nq,
                               kv_seq_len=nkv, head_size=d, head_size_kv=dv)
        kernel, hp, dyn = get_gqa_bshd_attention_kernel(shape, mfma, np.float16, np.float32, is_causal=causal,
                                                        sliding_window_size=window)
        q, k, v = randn(seqs, nq, hq, d), randn(seqs, nkv, hkv, d), randn(seqs, nkv, hkv, dv)
        out = np.zeros((seqs, nq, hq, dv), np.float32)
        compile_(kernel, hp, dyn)(q, k, v, out)
        r = hq // hkv
        kh = np.repeat(k.transpose(0, 2, 1, 3), r, axis=1)
        vh = np.repeat(v.transpose(0, 2, 1, 3), r, axis=1)
        want = _attention_ref(q.transpose(0, 2, 1, 3), kh, vh, causal, window).transpose(0, 2, 1, 3)
        close(out, want, 1e-3, 1e-3, "gqa bshd attention")
    return run


def gqa_bshd_attention_f8(seqs=1, hq=4, hkv=1, n=128, d=64, window=-1,
                          mfma=(MMAType.F32_16x16x32_F8, MMAType.F32_16x16x32_K4_F8)):
    """testCausalGQABSHDAttentionF8: whole-number inputs in [-128, 128], Wave's scales, RMSE below 0.04."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates.attention_common import AttentionShape
        from wavecc.wave_lang.kernel.wave.templates.gqa_vanilla_attention import get_gqa_bshd_attention_kernel
        from wavecc.wave_lang.kernel.wave.utils.torch_utils import quantized_tensor
        qs, ks, vs = 0.02578124962747097, 0.02363281324505806, 0.010286458767950535
        shape = AttentionShape(num_seqs=seqs, num_query_heads=hq, num_kv_heads=hkv, query_seq_len=n,
                               kv_seq_len=n, head_size=d, head_size_kv=d)
        kernel, hp, dyn = get_gqa_bshd_attention_kernel(shape, mfma, np.float16, np.float32, is_causal=True,
                                                        sliding_window_size=window, q_scale=qs, k_scale=ks,
                                                        v_scale=vs, use_fp8=True)
        g = compile_(kernel, hp, dyn, waves_per_eu=2, denorm_fp_math_f32="preserve-sign")
        q = quantized_tensor((seqs, hq, n, d), dtype=np.float16, scale=128)
        k = quantized_tensor((seqs, hkv, n, d), dtype=np.float16, scale=128)
        v = quantized_tensor((seqs, hkv, n, d), dtype=np.float16, scale=128)
        out = np.zeros((seqs, n, hq, d), np.float32)
        g(*(np.ascontiguousarray(x.transpose(0, 2, 1, 3)) for x in (q, k, v)), out)
        r = hq // hkv
        want = _attention_ref(q.astype(np.float32) * qs, np.repeat(k.astype(np.float32) * ks, r, axis=1),
                              np.repeat(v.astype(np.float32) * vs, r, axis=1), True, window)
        rmse = np.sqrt(np.mean(np.square(out.transpose(0, 2, 1, 3) - want)))
        assert rmse < 0.04, "RMSE %g is too high, expected less than 0.04" % rmse
    return run


# ---- alibi_attention.py, t5_rpe_attention.py (attention/alibi_attention_test.py, t5_rpe_attention_test.py) ----

def _slopes(n_heads):
    """alibi_attention_test.py's precompute_alibi_slopes."""
    n = 2 ** math.floor(math.log2(n_heads))
    m = (2.0 ** (-8.0 / n)) ** np.arange(1, 1 + n)
    if n < n_heads:
        m = np.concatenate([m, (2.0 ** (-4.0 / n)) ** np.arange(1, 1 + 2 * (n_heads - n), 2)])
    return m


def _biased_ref(q, k, v, bias):
    s = q.astype(np.float64) @ np.swapaxes(k.astype(np.float64), -1, -2) / math.sqrt(q.shape[-1]) + bias
    p = np.exp(s - s.max(-1, keepdims=True))
    return (p / p.sum(-1, keepdims=True)) @ v.astype(np.float64)


def biased_attention(kind, shape=(4, 4, 64, 64, 128, 128), mfma=(MMAType.F32_16x16x16_F16,) * 2, max_rpe=10):
    """test_alibi_attention / test_t5_rpe_attention: (heads, kv heads, head size, head size kv, q len, kv len)."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates.attention_common import AttentionShape
        from wavecc.wave_lang.kernel.wave.utils.general_utils import get_default_scheduling_params
        h, _, d, dv, m, k2 = shape
        a = AttentionShape(num_query_heads=h, num_kv_heads=shape[1], head_size=d, head_size_kv=dv,
                           query_seq_len=m, kv_seq_len=k2)
        q, k, v = randn(h, m, d), randn(h, k2, d), randn(h, k2, dv)
        log2e = 1.44269504089
        qs = (q * np.float16(math.sqrt(1.0 / d) * log2e)).astype(np.float16)
        rel = np.minimum(np.arange(k2)[None, :] - np.arange(m)[:, None], 0)
        if kind == "alibi":
            from wavecc.wave_lang.kernel.wave.templates.alibi_attention import get_alibi_attention_kernel
            kernel, hp, dyn = get_alibi_attention_kernel(a, mfma, dynamic_dims=False)
            slopes = _slopes(d)[:h]  # Wave's test takes the slopes of head_size heads
            extra = [(slopes * log2e).astype(np.float32)]
            bias = slopes[:, None, None] * rel[None]
        else:
            from wavecc.wave_lang.kernel.wave.templates.t5_rpe_attention import get_t5_rpe_attention_kernel
            kernel, hp, dyn = get_t5_rpe_attention_kernel(a, mfma, False, max_rpe)
            rpe = RNG.standard_normal(max_rpe + 1).astype(np.float32)
            diff = np.arange(m)[:, None] - np.arange(k2)[None, :]
            # the test zeroes rpe's last entry; the kernel adds rpe[max_rpe] outside the window
            rpe[max_rpe] = 0.0
            bias = np.where((diff >= 0) & (diff < max_rpe), rpe[np.clip(diff, 0, max_rpe)], 0.0)[None]
            extra = [(rpe * log2e).astype(np.float32)]
        hp.update(get_default_scheduling_params())
        out = np.zeros((h, m, dv), np.float32)
        compile_(kernel, hp, dyn)(qs, k, np.ascontiguousarray(v.transpose(0, 2, 1)), *extra, out)
        close(out, _biased_ref(q, k, v, bias), 2e-3, 2e-3, kind + " attention")
    return run


def quantized_attention(shape=(2, 128, 64, 64, 256), mfma=(MMAType.F32_16x16x32_F8, MMAType.F32_16x16x32_K4_F8),
                        causal=False):
    """testAttentionQuantized (quantized_attention_test.py): (heads, q len, head size kv, head size, kv len)."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates.attention_common import AttentionShape
        from wavecc.wave_lang.kernel.wave.templates.quantized_attention import \
            get_brevitas_pertensor_fp8_attention_kernel
        from wavecc.wave_lang.kernel.wave.utils.torch_utils import quantized_tensor
        b, m, dv, d, k2 = shape
        qs, ks, vs = 0.02578124962747097, 0.02363281324505806, 0.010286458767950535
        a = AttentionShape(num_query_heads=b, num_kv_heads=b, query_seq_len=m, head_size_kv=dv, head_size=d,
                           kv_seq_len=k2)
        kernel, hp, dyn = get_brevitas_pertensor_fp8_attention_kernel(a, mfma, q_scale=qs, k_scale=ks, v_scale=vs,
                                                                      is_causal=causal)
        q = quantized_tensor((b, m, d), dtype=np.float16, scale=128)
        k = quantized_tensor((b, k2, d), dtype=np.float16, scale=128)
        v = quantized_tensor((b, k2, dv), dtype=np.float16, scale=128)
        out = np.zeros((b, m, dv), np.float32)
        compile_(kernel, hp, dyn)(q, k, v, out)
        want = _attention_ref(q.astype(np.float32) * qs, k.astype(np.float32) * ks, v.astype(np.float32) * vs,
                              causal)
        rmse = np.sqrt(np.mean(np.square(out - want)))
        assert rmse < 0.04, "RMSE %g is too high, expected less than 0.04" % rmse
    return run


def evoformer(shape=(1, 4, 64, 2, 32, 64, 32), tiles=(1, 1, 32, 1, None, 64, 32)):
    """testEvoformerAttentionForward: shape (batch, n, kv len, heads, head dim, q len, v dim), f16, 32x32x8."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates.evoformer import get_evoformer_kernel
        from wavecc.wave_lang.kernel.wave.utils.general_utils import get_default_scheduling_params
        kernel, symbols = get_evoformer_kernel(*zip(shape, tiles), MMAType.F32_32x32x8_F16, tkl.f16)
        symbols.update(get_default_scheduling_params())
        g = compile_(kernel, symbols, waves_per_eu=2, denorm_fp_math_f32="preserve-sign")
        b, n, k2, h, d, m, dv = shape
        q, k, v = randn(b, n, m, h, d), randn(b, n, k2, h, d), randn(b, n, k2, h, dv)
        mask = RNG.integers(0, 2, (b, n, k2))
        mask_bias = np.where(mask == 1, 0.0, -np.inf).astype(np.float16)
        bias = randn(b, h, m, k2)
        out = np.zeros((b, n, m, h, dv), np.float16)
        log2e = 1.44269504089
        g((q * np.float16(math.sqrt(1.0 / d) * log2e)).astype(np.float16), k,
          np.ascontiguousarray(v.transpose(0, 1, 4, 3, 2)), mask_bias, (bias * np.float16(log2e)).astype(np.float16),
          out)
        qt, kt, vt = (x.transpose(0, 1, 3, 2, 4).astype(np.float64) for x in (q, k, v))  # [b, n, h, s, d]
        s_ = qt @ np.swapaxes(kt, -1, -2) / math.sqrt(d) + mask_bias[:, :, None, None, :] + bias[:, None]
        p_ = np.exp(s_ - s_.max(-1, keepdims=True))
        want = ((p_ / p_.sum(-1, keepdims=True)) @ vt).transpose(0, 1, 3, 2, 4)
        close(out, want, 2e-2, 2e-2, "evoformer")
    return run


def prefill_attention(shape=(4, 1, 64, 64, (128, 256))):
    """testPrefillAttention: (query heads, kv heads, head size, head size kv, sequence lengths), packed."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates.attention_common import AttentionShape
        from wavecc.wave_lang.kernel.wave.templates.prefill_attention import get_prefill_attention_kernel
        from wavecc.wave_lang.kernel.wave.utils.general_utils import get_default_scheduling_params
        hq, hkv, d, dv, lens = shape
        a = AttentionShape(num_query_heads=hq, num_kv_heads=hkv, head_size=d, head_size_kv=dv, num_seqs=len(lens),
                           max_seq_len=max(lens), total_seq_len=sum(lens))
        total = sum(lens)
        q, k, v = randn(total, hq, d), randn(total, hkv, d), randn(total, hkv, d)
        starts = np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int32)
        kernel, hp = get_prefill_attention_kernel(a, (MMAType.F32_16x16x16_F16,) * 2, q.shape, k.shape, v.shape,
                                                  (total, hq, dv))
        hp.update(get_default_scheduling_params())
        out = np.zeros((total, hq, dv), np.float32)
        compile_(kernel, hp)((q * np.float16(math.sqrt(1.0 / d) * 1.44269504089)).astype(np.float16), k, v, starts,
                             np.array(lens, np.int32), out)
        r = hq // hkv
        for st, n in zip(starts, lens):
            qs, ks, vs = (x[st:st + n].transpose(1, 0, 2) for x in (q, k, v))
            want = _attention_ref(qs, np.repeat(ks, r, axis=0), np.repeat(vs, r, axis=0)).transpose(1, 0, 2)
            close(out[st:st + n], want, 1e-3, 1e-3, "prefill attention (sequence at %d)" % st)
    return run


def paged_decoding(shape=(16, 1, 64, 64, 32, 2, 100), splits=8, logit_cap=0.0, seed=3):
    """testPagedFlashDecoding: (query heads, kv heads, head size, head size kv, block size, sequences, kv len),
    Wave's create_inputs (lengths jittered by up to a tenth; the block table a permutation here), f16. Phase 0
    (each split's normalised partial output and m + log2(sum)) is compared with those computed here, and phase 1,
    run on phase 0's results as the host chains them, with the attention itself (logit_cap: c·tanh(x / c) on the
    scaled logits)."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates.paged_decode_attention import (
            get_paged_decode_attention_kernels, get_paged_decode_intermediate_arrays_shapes,
            paged_decode_attention_shape)
        from wavecc.wave_lang.kernel.wave.utils.general_utils import get_default_scheduling_params
        hq, hkv, d, dv, bs, seqs, kv_len = shape
        ps = paged_decode_attention_shape(num_query_heads=hq, num_kv_heads=hkv, head_size=d, head_size_kv=dv,
                                          block_size=bs, num_seqs=seqs)
        rng = np.random.default_rng(seed)
        q, kc, vc = randn(seqs, hq, d), randn(seqs * kv_len, hkv, d), randn(seqs * kv_len, hkv, dv)
        table = rng.permutation(seqs * kv_len).astype(np.int32)
        req = np.concatenate([[0], np.cumsum([kv_len] * seqs)]).astype(np.int32)
        if kv_len // 10 > 0 and seqs > 1:
            req[1:seqs] += rng.integers(-(kv_len // 10), kv_len // 10, seqs - 1).astype(np.int32)
        p0, p1, hp0, hp1, dyn0, dyn1 = get_paged_decode_attention_kernels(ps, (MMAType.F32_16x16x16_F16,) * 2, splits,
                                                                           np.float16, np.float16,
                                                                           logit_cap=logit_cap)
        hp0.update(get_default_scheduling_params())
        hp1.update(get_default_scheduling_params())
        o_shape, m_shape = get_paged_decode_intermediate_arrays_shapes(ps, splits)
        part, part_max = np.zeros(o_shape, np.float32), np.zeros(m_shape, np.float32)
        compile_(p0, hp0, dyn0)(q, kc, vc, req, table, part, part_max)
        # phase 0's results computed here: per split its normalised partial output and m + log2(sum)
        r = hq // hkv
        want = np.zeros((seqs, hq, dv))
        want_part, want_max = np.zeros(o_shape), np.zeros(m_shape)
        for i in range(seqs):
            n = req[i + 1] - req[i]
            rows = table[req[i]:req[i + 1]]
            k_ = np.repeat(kc[rows].astype(np.float64), r, axis=1)
            v_ = np.repeat(vc[rows].astype(np.float64), r, axis=1)
            a = np.einsum("hd,khd->hk", q[i].astype(np.float64), k_) / math.sqrt(d)
            if logit_cap > 0:
                a = logit_cap * np.tanh(a / logit_cap)
            a = a * 1.44269504089
            p_ = np.exp2(a - a.max(-1, keepdims=True))
            want[i] = np.einsum("hk,khd->hd", p_ / p_.sum(-1, keepdims=True), v_)
            per = -(-n // splits)
            for u in range(splits):
                lo, hi = u * per, min(n, (u + 1) * per)
                if hi <= lo:
                    want_max[u, i] = -1e6
                    continue
                m = a[:, lo:hi].max(-1)
                e = np.exp2(a[:, lo:hi] - m[:, None])
                want_part[u, i] = (np.einsum("hk,khd->hd", e, v_[lo:hi]) / e.sum(-1)[:, None])
                want_max[u, i] = m + np.log2(e.sum(-1))
        close(part, want_part, 1e-2, 1e-2, "paged decoding phase 0 (partial outputs)")
        close(part_max, want_max, 1e-2, 1e-2, "paged decoding phase 0 (m + log2(sum))")
        out = np.zeros((seqs, hq, dv), np.float16)
        compile_(p1, hp1, dyn1)(part, part_max, req, out)
        close(out, want, 1e-2, 1e-2, "paged decoding phases 0 and 1")
    return run


def paged_decoding_mha(shape=(16, 64, 64, 32, 2, 100), splits=8, seed=5):
    """testPagedFlashDecodingMHA: (heads, head size, head size kv, block size, sequences, kv len), one kv head a
    query head, Wave's GenericDot types (along M; k_vec 4, k_mult 1 and k_vec 1, k_mult 64), f16; its create_inputs
    (no jitter), the block table a permutation here. Both phases chained, compared with the attention."""
    def run():
        from wavecc.wave_lang.kernel.wave.constraints import GenericDot, MMAOperand
        from wavecc.wave_lang.kernel.wave.templates.paged_decode_attention import (
            get_paged_decode_attention_kernels, get_paged_decode_intermediate_arrays_shapes,
            paged_decode_attention_shape)
        from wavecc.wave_lang.kernel.wave.utils.general_utils import get_default_scheduling_params
        h, d, dv, bs, seqs, kv_len = shape
        ps = paged_decode_attention_shape(num_query_heads=h, num_kv_heads=h, head_size=d, head_size_kv=dv,
                                          block_size=bs, num_seqs=seqs)
        mfma = (GenericDot(along_dim=MMAOperand.M, k_vec_size=4, k_mult=1),
                GenericDot(along_dim=MMAOperand.M, k_vec_size=1, k_mult=64))
        p0, p1, hp0, hp1, dyn0, dyn1 = get_paged_decode_attention_kernels(ps, mfma, splits, np.float16, np.float16)
        hp0.update(get_default_scheduling_params())
        hp1.update(get_default_scheduling_params())
        rng = np.random.default_rng(seed)
        q, kc, vc = randn(seqs, h, d), randn(seqs * kv_len, h, d), randn(seqs * kv_len, h, dv)
        table = rng.permutation(seqs * kv_len).astype(np.int32)
        req = np.concatenate([[0], np.cumsum([kv_len] * seqs)]).astype(np.int32)
        o_shape, m_shape = get_paged_decode_intermediate_arrays_shapes(ps, splits)
        part, part_max = np.zeros(o_shape, np.float32), np.zeros(m_shape, np.float32)
        compile_(p0, hp0, dyn0)(q, kc, vc, req, table, part, part_max)
        out = np.zeros((seqs, h, dv), np.float16)
        compile_(p1, hp1, dyn1)(part, part_max, req, out)
        want = np.zeros((seqs, h, dv))
        for i in range(seqs):
            rows = table[req[i]:req[i + 1]]
            a = np.einsum("hd,khd->hk", q[i].astype(np.float64), kc[rows].astype(np.float64)) / math.sqrt(d)
            p_ = np.exp(a - a.max(-1, keepdims=True))
            want[i] = np.einsum("hk,khd->hd", p_ / p_.sum(-1, keepdims=True), vc[rows].astype(np.float64))
        close(out, want, 1e-3, 1e-3, "paged decoding MHA, phases 0 and 1")
    return run


def _extend_inputs(seqs, ctx, hq, hkv, d, rng):
    """extend_attention_test.py's create_inputs in numpy: per sequence a cached prefix and new tokens."""
    pre = rng.integers(1, ctx // 2, seqs).astype(np.int32)
    ext = rng.integers(1, ctx // 2, seqs).astype(np.int32)
    tot = pre + ext
    start = np.concatenate([[0], np.cumsum(tot)[:-1]]).astype(np.int32)
    kv_indptr = np.concatenate([[0], np.cumsum(pre)]).astype(np.int32)
    kv_indices = np.concatenate([np.arange(start[i], start[i] + pre[i]) for i in range(seqs)]).astype(np.int32)
    k_buf = (0.1 + 0.2 * rng.standard_normal((tot.sum(), hkv, d))).astype(np.float16)
    v_buf = (0.1 + 0.2 * rng.standard_normal((tot.sum(), hkv, d))).astype(np.float16)
    k_ext = np.concatenate([k_buf[start[i] + pre[i]:start[i] + tot[i]] for i in range(seqs)])
    v_ext = np.concatenate([v_buf[start[i] + pre[i]:start[i] + tot[i]] for i in range(seqs)])
    q_ext = (0.1 + 0.2 * rng.standard_normal((ext.sum(), hq, d))).astype(np.float16)
    qo_indptr = np.concatenate([[0], np.cumsum(ext)]).astype(np.int32)
    mask_len = ext * tot
    mask_offsets = np.concatenate([[0], np.cumsum(mask_len)]).astype(np.int32)
    custom = np.concatenate([np.concatenate([np.ones((ext[i], pre[i]), np.int8),
                                             np.tril(np.ones((ext[i], ext[i]), np.int8))], axis=1).ravel()
                             for i in range(seqs)])
    return dict(pre=pre, ext=ext, start=start, q=q_ext, k=k_ext, v=v_ext, k_buf=k_buf, v_buf=v_buf,
                qo_indptr=qo_indptr, kv_indptr=kv_indptr, kv_indices=kv_indices, custom=custom,
                mask_offsets=mask_offsets)


def _extend_ref(x, hq, hkv, causal, logit_cap, rpe=None):
    """Per sequence: its new queries against its prefix and new keys (causal over the new ones); rpe: the T5 bias
    rpe[q - k] (q - k in [0, len(rpe) - 1), else rpe[-1]) on the new keys' scores."""
    outs = []
    r = hq // hkv
    for i in range(len(x["pre"])):
        st, pre, ext = x["start"][i], x["pre"][i], x["ext"][i]
        q = x["q"][x["qo_indptr"][i]:x["qo_indptr"][i + 1]].astype(np.float64)  # [ext, hq, d]
        k = np.repeat(x["k_buf"][st:st + pre + ext].astype(np.float64), r, axis=1)
        v = np.repeat(x["v_buf"][st:st + pre + ext].astype(np.float64), r, axis=1)
        a = np.einsum("qhd,khd->hqk", q, k) / math.sqrt(q.shape[-1])
        if logit_cap > 0:
            a = logit_cap * np.tanh(a / logit_cap)
        if rpe is not None:
            diff = np.arange(ext)[:, None] - np.arange(ext)[None, :]
            mx = len(rpe) - 1
            a[:, :, pre:] += np.where((diff >= 0) & (diff < mx), rpe[np.clip(diff, 0, mx)], rpe[mx])[None]
        if causal:
            a = np.where(np.arange(pre + ext)[None, None, :] <= pre + np.arange(ext)[None, :, None], a, -np.inf)
        p_ = np.exp(a - a.max(-1, keepdims=True))
        outs.append(np.einsum("hqk,khd->qhd", p_ / p_.sum(-1, keepdims=True), v))
    return np.concatenate(outs)


def extend_attention(seqs=2, ctx=128, hq=2, hkv=1, d=64, causal=False, custom_mask=False, seed=11,
                     mfma=(MMAType.F32_16x16x16_F16,) * 2, cap=30.0):
    """testExtendAttention (Wave's create_inputs at a smaller context; Wave's logit cap 30, which these scores
    hardly reach: a cap of 0.1 checks it)."""
    def run():
        from dataclasses import replace
        from wavecc.wave_lang.kernel.wave.templates.attention_common import AttentionShape
        from wavecc.wave_lang.kernel.wave.templates.extend_attention import get_extend_attention_kernel
        from wavecc.wave_lang.kernel.wave.utils.general_utils import get_default_scheduling_params
        x = _extend_inputs(seqs, ctx, hq, hkv, d, np.random.default_rng(seed))
        shape = AttentionShape(num_seqs=seqs, context_len=ctx, num_query_heads=hq, num_kv_heads=hkv,
                               head_size=d, head_size_kv=d, block_size=64)
        max_ext = int(x["ext"].max())
        shape = replace(shape, max_seq_len=max_ext)
        out = np.zeros((x["q"].shape[0], hq, d), np.float32)
        waves = 2 if mfma[1] == MMAType.F32_32x32x8_F16 else 4
        kernel, hp, dyn = get_extend_attention_kernel(shape, mfma, x["q"].shape, x["k"].shape, x["v"].shape,
                                                      x["k_buf"].shape, x["v_buf"].shape, out.shape,
                                                      is_causal=causal, logit_cap=cap, num_waves=waves,
                                                      use_custom_mask=custom_mask)
        hp.update(get_default_scheduling_params())
        g = compile_(kernel, hp, dyn)
        args = [x["q"], x["k"], x["v"], x["k_buf"], x["v_buf"], x["qo_indptr"], x["kv_indptr"], x["kv_indices"]]
        if custom_mask:
            args += [x["custom"], x["mask_offsets"]]
        g(*args, max_ext, out)
        close(out, _extend_ref(x, hq, hkv, causal or custom_mask, cap), 1e-3, 1e-3, "extend attention")
    return run


def tagged_attention(causal=False, heads=4, kv_heads=2, n=256, d=64, num_waves=4,
                     mfma=(MMAType.F32_16x16x16_F16,) * 2):
    """manual_scheduled_attention_test.py's tagged kernel (every op tagged; wavecc's own schedule), B = 1."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates import AttentionShape, get_tagged_bshd_attention_kernel
        shape = AttentionShape(num_query_heads=heads, num_kv_heads=kv_heads, head_size=d, head_size_kv=d,
                               query_seq_len=n, kv_seq_len=n)
        kernel, hp, dyn = get_tagged_bshd_attention_kernel(shape, mfma, False, is_causal=causal, num_waves=num_waves)
        q, k, v = randn(1, n, heads, d), randn(1, n, kv_heads, d), randn(1, n, kv_heads, d)
        out = np.zeros((1, n, heads, d), np.float32)
        compile_(kernel, hp, dyn)(q, k, v, out)
        r = heads // kv_heads
        want = _attention_ref(q.transpose(0, 2, 1, 3), np.repeat(k.transpose(0, 2, 1, 3), r, axis=1),
                              np.repeat(v.transpose(0, 2, 1, 3), r, axis=1), causal).transpose(0, 2, 1, 3)
        close(out, want, 2e-2, 2e-2, "tagged attention")  # q is scaled in f16 first
    return run


def extend_attention_rpe(seqs=2, ctx=128, hq=2, hkv=1, d=64, causal=True, max_rpe=10, seed=13):
    """testExtendRpeAttention: extend attention with T5's bias on the new tokens (rpe's last entry 0, as Wave's
    test has it), block size 64."""
    def run():
        from dataclasses import replace
        from wavecc.wave_lang.kernel.wave.templates.attention_common import AttentionShape
        from wavecc.wave_lang.kernel.wave.templates.extend_attention_rpe import get_extend_attention_rpe_kernel
        from wavecc.wave_lang.kernel.wave.utils.general_utils import get_default_scheduling_params
        rng = np.random.default_rng(seed)
        x = _extend_inputs(seqs, ctx, hq, hkv, d, rng)
        rpe = rng.standard_normal(max_rpe + 1).astype(np.float32)
        rpe[max_rpe] = 0.0
        shape = AttentionShape(num_seqs=seqs, context_len=ctx, num_query_heads=hq, num_kv_heads=hkv,
                               head_size=d, head_size_kv=d, block_size=64)
        max_ext = int(x["ext"].max())
        shape = replace(shape, max_seq_len=max_ext)
        out = np.zeros((x["q"].shape[0], hq, d), np.float32)
        kernel, hp, dyn = get_extend_attention_rpe_kernel(shape, (MMAType.F32_16x16x16_F16,) * 2, x["q"].shape,
                                                          x["k"].shape, x["v"].shape, x["k_buf"].shape,
                                                          x["v_buf"].shape, out.shape, is_causal=causal,
                                                          max_rpe_context_length=max_rpe)
        hp.update(get_default_scheduling_params())
        compile_(kernel, hp, dyn)(x["q"], x["k"], x["v"], x["k_buf"], x["v_buf"], x["qo_indptr"], x["kv_indptr"],
                                  x["kv_indices"], rpe, max_ext, out)
        close(out, _extend_ref(x, hq, hkv, causal, 0.0, rpe), 1e-3, 1e-3, "extend attention rpe")
    return run


def two_pp_cluster_gemm(shape=(128, 256, 256)):
    """wave_gemm_test.py's get_tagged_gemm with get_two_pp_cluster_schedule (accepted, not applied)."""
    def run():
        import warnings
        from wavecc.wave_lang.kernel.wave.schedules.gemm_two_pp_cluster import (get_tagged_gemm,
                                                                               get_two_pp_cluster_schedule)
        gemm, options = get_tagged_gemm(shape)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            g = wave_compile(set_default_run_config(options), gemm, get_two_pp_cluster_schedule())
        assert any("manual schedule is not applied" in str(x.message) for x in w), [str(x.message) for x in w]
        a, b = randn(shape[0], shape[2]), randn(shape[1], shape[2])
        c = np.zeros((shape[0], shape[1]), np.float32)
        g(a, b, c)
        close(c, _gemm_ref(a, b), 1e-3, 1e-2, "tagged gemm")
    return run


# the fast tier's share (make check-fast): one or two of each family; the rest of _small() runs in the full tier
FAST = {
    "templates.gemm.get_gemm_kernel 64^3", "templates.gemm.get_gemm_kernel dynamic 96x80x128",
    "templates.gemm.get_persistent_gemm_kernel", "templates.gemm.get_streamk_gemm_kernel rejected",
    "templates.speculative_decoding.get_speculative_sampling_kernel (1, 1)",
    "iterate with a condition on GET_ITER_ARG (the templates' loop form)",
    "templates.get_tagged_mxfp4_gemm gfx950 (7_mxfp_gemm.py)", "templates.test_kernels.get_broadcast_scaled_add",
    "templates.conv.get_igemm_conv2d nchw_fchw (4, 5, 5, 10, 2, 2, 16, 1) global",
    "templates.vanilla_attention.get_vanilla_attention_kernel",
    "templates.gqa_vanilla_attention.get_gqa_bshd_attention_kernel",
    "templates.decode_attention.get_decode_attention_kernels (2, 16, 64, 64, 128)",
    "templates.extend_attention.get_extend_attention_kernel",
    "templates.prefill_attention.get_prefill_attention_kernel (1, 1, 13, 13, (64, 64))",
    "templates.paged_decode_attention (16, 1, 64, 64, 32, 2, 100): phases 0 and 1",
}


def tests():
    return [t for t in _small() if t[0] in FAST]


def _small():
    return [
        ("templates.gemm.get_gemm_kernel 64^3", gemm()),
        ("templates.gemm.get_gemm_kernel dynamic 96x80x128", gemm((96, 80, 128), True)),
        ("templates.gemm.get_gemm_kernel_transpose_a_b", gemm_transpose_a_b()),
        ("templates.gemm.get_splitk_gemm_kernel", splitk_gemm()),
        ("templates.gemm.get_persistent_gemm_kernel", persistent_gemm()),
        ("templates.gemm.get_persistent_reordering_kernel", persistent_gemm((300, 300, 300), reordering=True)),
        ("templates.gemm.get_streamk_gemm_kernel rejected", streamk_rejected),
        ("templates.speculative_decoding.get_speculative_sampling_kernel (1, 1)", speculative_sampling()),
        ("templates.speculative_decoding.get_speculative_sampling_kernel (0, 0)",
         speculative_sampling(0.0, 1e-9)),
        ("templates.speculative_decoding.get_speculative_sampling_kernel random trees",
         speculative_sampling(random_tree=True, seed=3)),
        ("iterate with a condition on GET_ITER_ARG (the templates' loop form)", while_carried_condition),
        ("templates.gemm.get_scaled_gemm_kernel MXFP4 gfx950 (utils.mxfp_utils)", scaled_gemm()),
        ("templates.test_kernels.get_broadcasted_scale_gemm_mxfp4 gfx950", broadcast_scale_gemm()),
        ("templates.get_tagged_mxfp4_gemm gfx950 (7_mxfp_gemm.py)", tagged_mxfp4_gemm()),
        ("templates.get_tagged_mxfp4_gemm gfx950 3x5 tiles in groups of 2 along N",
         tagged_mxfp4_gemm((384, 640, 256), (128, 128, 256), 2)),
        ("templates.reordered_gemm.get_reordered_matmul 256^3", reordered_gemm()),
        ("schedules.gemm_two_pp_cluster get_tagged_gemm + get_two_pp_cluster_schedule", two_pp_cluster_gemm()),
        ("templates.dist_gemm.get_dist_gemm_kernel 2x2 devices", dist_gemm()),
        ("templates.moe get_gemm_kernel, get_silu_and_mul_kernel", moe_kernels()),
        ("templates.reordered_gemm.get_reordered_matmul 20 tiles, groups of 2",
         reordered_gemm((320, 256, 64), (64, 64, 32), 2)),
        ("templates.test_kernels.get_broadcast_scaled_add", broadcast_scaled_add()),
        ("templates.test_kernels.get_gemm_prefetch_kernel_and_schedule", scheduled_gemm("prefetch", (128, 128, 128))),
        ("templates.test_kernels.get_gemm_unroll_kernel_and_schedule", scheduled_gemm("unroll", (128, 128, 256))),
        ("templates.conv.get_igemm_conv2d nchw_fchw (4, 5, 5, 10, 2, 2, 16, 1) global",
         igemm_conv(4, 5, 5, 10, 2, 2, 16, 1, "nchw_fchw", "global")),
        ("templates.conv.get_igemm_conv2d nhwc_hwcf (1, 5, 5, 10, 2, 2, 16, 3) shared",
         igemm_conv(1, 5, 5, 10, 2, 2, 16, 3, "nhwc_hwcf")),
        ("templates.conv.get_igemm_conv2d nhwc_hwcf (1, 5, 5, 1, 3, 3, 1, 1) shared",
         igemm_conv(1, 5, 5, 1, 3, 3, 1, 1, "nhwc_hwcf")),
        ("templates.conv.get_igemm_conv2d nchw_fchw (1, 5, 5, 3, 2, 2, 2, 2) shared",
         igemm_conv(1, 5, 5, 3, 2, 2, 2, 2, "nchw_fchw")),
        ("templates.vanilla_attention.get_vanilla_attention_kernel", vanilla_attention()),
        ("templates.gqa_vanilla_attention.get_gqa_bshd_attention_kernel", gqa_bshd_attention()),
        ("templates.gqa_vanilla_attention.get_gqa_bshd_attention_kernel causal, window 64",
         gqa_bshd_attention(True, 64, nkv=128, mfma=(MMAType.F32_32x32x8_F16,) * 2)),
        ("templates.gqa_vanilla_attention.get_gqa_bshd_attention_kernel f8 causal", gqa_bshd_attention_f8()),
        ("templates.alibi_attention.get_alibi_attention_kernel", biased_attention("alibi")),
        ("templates.t5_rpe_attention.get_t5_rpe_attention_kernel", biased_attention("t5")),
        ("templates.quantized_attention.get_brevitas_pertensor_fp8_attention_kernel", quantized_attention()),
        ("templates.quantized_attention.get_brevitas_pertensor_fp8_attention_kernel causal 32x32x16",
         quantized_attention(mfma=(MMAType.F32_32x32x16_F8, MMAType.F32_32x32x16_K4_F8), causal=True)),
        ("templates.evoformer.get_evoformer_kernel", evoformer()),
        ("templates.prefill_attention.get_prefill_attention_kernel (1, 1, 13, 13, (64, 64))",
         prefill_attention((1, 1, 13, 13, (64, 64)))),
        ("templates.prefill_attention.get_prefill_attention_kernel (4, 1, 64, 64, (128, 256))",
         prefill_attention()),
        ("templates.paged_decode_attention (16, 1, 64, 64, 32, 2, 100): phases 0 and 1", paged_decoding()),
        ("templates.paged_decode_attention (2, 1, 1, 1, 1, 1, 9): splits past the length",
         paged_decoding((2, 1, 1, 1, 1, 1, 9))),
        ("templates.paged_decode_attention (128, 8, 64, 80, 32, 2, 100): phase 1 over 64-head tiles",
         paged_decoding((128, 8, 64, 80, 32, 2, 100))),
        ("templates.paged_decode_attention (16, 2, 64, 64, 32, 1, 100) logit_cap 30: 8 query heads a kv head",
         paged_decoding((16, 2, 64, 64, 32, 1, 100), logit_cap=30.0)),
        ("templates.paged_decode_attention (64, 1, 64, 64, 32, 1, 100): 4 waves along the query heads",
         paged_decoding((64, 1, 64, 64, 32, 1, 100))),
        ("templates.paged_decode_attention MHA (16, 64, 64, 32, 2, 100): GenericDot, phases 0 and 1",
         paged_decoding_mha()),
        ("templates.paged_decode_attention MHA (16, 64, 64, 32, 2, 3)", paged_decoding_mha((16, 64, 64, 32, 2, 3))),
        ("templates.extend_attention.get_extend_attention_kernel", extend_attention()),
        ("templates.extend_attention.get_extend_attention_kernel causal 32x32x8",
         extend_attention(causal=True, mfma=(MMAType.F32_32x32x8_F16,) * 2)),
        ("templates.extend_attention.get_extend_attention_kernel custom mask", extend_attention(custom_mask=True)),
        ("templates.extend_attention.get_extend_attention_kernel soft cap 0.1, 4 heads on 2",
         extend_attention(hq=4, hkv=2, cap=0.1)),
        ("templates.tagged_attention.get_tagged_bshd_attention_kernel", tagged_attention()),
        ("templates.tagged_attention.get_tagged_bshd_attention_kernel causal", tagged_attention(True)),
        ("templates.extend_attention_rpe.get_extend_attention_rpe_kernel", extend_attention_rpe()),
        ("templates.decode_attention.get_decode_attention_kernels (2, 16, 64, 64, 128)",
         flash_decoding((2, 16, 64, 64, 128))),
        ("templates.gqa_decode_attention.get_gqa_decode_attention_kernels 64/2 heads, 500 keys, 8 splits",
         gqa_flash_decoding()),
        ("templates.vanilla_attention.get_vanilla_attention_kernel causal 32x32x8",
         vanilla_attention((MMAType.F32_32x32x8_F16,) * 2, causal=True)),
        ("templates.vanilla_attention.get_bshd_attention_kernel causal", bxsd_attention("bshd", causal=True)),
        ("templates.vanilla_attention.get_bhsd_attention_kernel", bxsd_attention("bhsd", batch=2)),
        ("templates.vanilla_attention.get_bshd_attention_kernel custom mask", bxsd_attention("bshd", custom_mask=True)),
    ]


# Wave's largest shapes (10 s or more each on the emulator): not in make
# check's full tier but in run_tests.py slow, which .ci/run runs after it.
LARGEST = ("Wave's shape (2 sequences, context 1024", "alibi_attention_kernel Wave's shape",
           "t5_rpe_attention_kernel Wave's shape", "gqa_decode_attention_kernels Wave's shape",
           "get_gemm_kernel 1024x1024x1024")


def _largest(name):
    return any(x in name for x in LARGEST)


def slow_tests():
    return [t for t in _all_slow() if not _largest(t[0])]


def largest_tests():
    return [t for t in _all_slow() if _largest(t[0])]


def _all_slow():
    return [t for t in _small() if t[0] not in FAST] + [
        ("templates.gemm.get_persistent_gemm_kernel Wave's 300^3, 304 workgroups, 4x1 waves",
         persistent_gemm((300, 300, 300), wave_default=True)),
        ("templates.gemm.get_splitk_gemm_kernel Wave's 256^3, 4 splits", splitk_gemm((256, 256, 256), 4, None)),
        ("templates.extend_attention.get_extend_attention_kernel Wave's shape (2 sequences, context 1024, 16 heads "
         "on 1, head 128) causal", extend_attention(2, 1024, 16, 1, 128, causal=True)),
        ("templates.alibi_attention.get_alibi_attention_kernel Wave's shape 128^6",
         biased_attention("alibi", (128,) * 6)),
        ("templates.t5_rpe_attention.get_t5_rpe_attention_kernel Wave's shape 128^6, 128 positions 32x32x8",
         biased_attention("t5", (128,) * 6, (MMAType.F32_32x32x8_F16,) * 2, 128)),
        ("templates.gqa_decode_attention.get_gqa_decode_attention_kernels Wave's shape (32 heads, 8000 keys, 256)",
         gqa_flash_decoding(1, 32, 1, 8000, 256, 256, 8)),
        ("templates.decode_attention.get_decode_attention_kernels (8, 128, 128, 64, 256) 32x32x8",
         flash_decoding((8, 128, 128, 64, 256), MMAType.F32_32x32x8_F16)),
        ("templates.decode_attention.get_decode_attention_kernels (8, 128, 128, 64, 256) dynamic",
         flash_decoding((8, 128, 128, 64, 256), dyn=True)),
        ("templates.conv.get_igemm_conv2d nhwc_hwcf 2x32x32x64 3x3 -> 64 shared",
         igemm_conv(2, 32, 32, 64, 3, 3, 64, 1, "nhwc_hwcf")),
        ("templates.test_kernels.get_gemm_pipeline_then_unroll_kernel_and_schedule 256x256x544",
         scheduled_gemm("pipeline_then_unroll", (256, 256, 544))),
        ("templates.test_kernels.get_gemm_unroll_with_iteration_access_kernel_and_schedule 256x256x512",
         scheduled_gemm("unroll_with_iteration_access", (256, 256, 512))),
        ("templates.gemm.get_gemm_kernel 1024x1024x1024 prefetch",
         gemm((1024, 1024, 1024), False, schedule=SchedulingType.PREFETCH)),
        ("templates.vanilla_attention.get_vanilla_attention_kernel sliding window, transposed v, dynamic",
         vanilla_attention(causal=True, window=64, v_t=True, dyn=True, heads=4, m=256, k2=300)),
    ]


if __name__ == "__main__":
    import sys
    from run_tests import run_cases
    sel = sys.argv[1:]
    cases = _small() + _all_slow()[len(_small()) - len(tests()):]
    sys.exit(1 if run_cases([c for c in cases if not sel or any(s in c[0] for s in sel)]) else 0)
