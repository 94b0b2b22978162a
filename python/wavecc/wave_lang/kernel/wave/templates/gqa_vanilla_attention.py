"""Wave's wave_lang.kernel.wave.templates.gqa_vanilla_attention, written for wavecc's tracer.

get_gqa_bshd_attention_kernel: flash attention over q[B, N_Q, H, D_Q], k and v [B, N_KV, H_KV, D] with H query
heads sharing H_KV kv heads (query head h reads kv head h // (H / H_KV) through the k and v mappings), out
[B, N_Q, H, D_KV]. Scores are masked past N_KV (causal: k > q, a loop that stops at the workgroup's last query
row, and an optional sliding window), scaled by layer_scaling * log2 e, and folded in with an online softmax in
base 2. With use_fp8, q, k, v and the probabilities are cast to f8e4m3fnuz (probabilities offset by
log2(240) and clamped to 240), the scale multiplied by q_scale * k_scale and the result by v_scale.
Returns (kernel, hyperparams, dynamic_symbols).
"""
import math

import sympy

from ... import lang as tkl
from ... import wave as tkw
from ...lang.global_symbols import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE, WORKGROUP_0
from ..constraints import MMAType
from ._common import F16, wave_dtype
from .attention_common import (AttentionShape, H, H_KV, N_Q, N_KV, D_Q, D_KV, BLOCK_H, BLOCK_N_Q,  # noqa: F401
                               BLOCK_N_KV, BLOCK_D_KV)

_F8_MAX = 240.0  # float8_e4m3fnuz's largest finite value


def get_gqa_bshd_attention_kernel(shape, mfma_variant, input_dtype=F16, output_dtype="float32", is_causal=False,
                                  layer_scaling=None, sliding_window_size=-1, q_scale=1.0, k_scale=1.0, v_scale=1.0,
                                  use_fp8=False):
    if sliding_window_size > 0 and not is_causal:
        raise NotImplementedError("Sliding window is only supported for causal attention.")
    t_in, t_out = wave_dtype(input_dtype), wave_dtype(output_dtype)
    f32, f8 = tkl.f32, tkl.f8e4m3fnuz
    scale = (layer_scaling or math.sqrt(1.0 / shape.head_size)) * 1.44269504089
    if use_fp8:
        scale *= q_scale * k_scale
    B, BLOCK_B, AS = tkl.sym.B, tkl.sym.BLOCK_B, tkl.sym.ADDRESS_SPACE
    if is_causal:
        kv_tiling = tkw.TilingConstraint(N_KV, BLOCK_N_KV,
                                         iters=sympy.Min((WORKGROUP_0 + 1) * BLOCK_N_Q, N_KV) // BLOCK_N_KV)
    else:
        kv_tiling = tkw.TilingConstraint(N_KV, BLOCK_N_KV)
    vec = 32 if MMAType.F32_32x32x8_F16 == mfma_variant[1] or MMAType.F32_32x32x16_F8 == mfma_variant[0] else 16
    constraints = [
        tkw.WorkgroupConstraint(N_Q, BLOCK_N_Q, 0),
        tkw.WorkgroupConstraint(D_KV, BLOCK_D_KV, 1),
        tkw.WorkgroupConstraint(B, BLOCK_B, 2),
        tkw.WorkgroupConstraint(H, BLOCK_H, 3),
        tkw.WorkgroupConstraint(H_KV, BLOCK_H, 3, primary=False),
        kv_tiling,
        tkw.WaveConstraint(N_Q, BLOCK_N_Q / 4),
        tkw.WaveConstraint(D_KV, BLOCK_D_KV / 1),
        tkw.HardwareConstraint(threads_per_wave=64, mma_type=mfma_variant[1],
                               vector_shapes={B: 0, H: 0, H_KV: 0, N_Q: vec, D_KV: vec}),
    ]
    ratio = shape.num_query_heads // shape.num_kv_heads
    i, j, k, l_ = (tkw.IndexMapping.iterator(x) for x in range(4))
    out_map = tkw.IndexMapping(num_iterators=4, inputs={B: i, H: j, D_KV: k, N_Q: l_},
                               outputs={B: i, N_Q: l_, H: j, D_KV: k})
    q_map = tkw.IndexMapping(num_iterators=4, inputs={B: i, H: j, N_Q: k, D_Q: l_},
                             outputs={B: i, H: j, N_Q: k, D_Q: l_})
    k_map = tkw.IndexMapping(num_iterators=4, inputs={B: i, H_KV: j // ratio, N_KV: k, D_Q: l_},
                             outputs={B: i, H_KV: j, N_KV: k, D_Q: l_})
    v_map = tkw.IndexMapping(num_iterators=4, inputs={B: i, H_KV: j // ratio, D_KV: k, N_KV: l_},
                             outputs={B: i, H_KV: j, D_KV: k, N_KV: l_})

    @tkw.wave(constraints)
    def base_attention(q: tkl.Memory[B, N_Q, H, D_Q, GLOBAL_ADDRESS_SPACE, t_in],
                       k: tkl.Memory[B, N_KV, H_KV, D_Q, AS, t_in],
                       v: tkl.Memory[B, N_KV, H_KV, D_KV, AS, t_in],
                       c: tkl.Memory[B, N_Q, H, D_KV, GLOBAL_ADDRESS_SPACE, t_out]):
        scaling = tkl.Register[B, H, N_Q, N_KV, f32](scale)
        window = tkl.Register[N_Q, N_KV, tkl.i32](sliding_window_size)
        zero, neg = tkl.Register[N_Q, N_KV, f32](0.0), tkl.Register[N_Q, N_KV, f32](-1e6)
        if use_fp8:
            v_dequant = tkl.Register[B, D_KV, N_Q, f32](v_scale)
            f8_offset = tkl.Register[B, N_Q, N_KV, f32](math.log2(_F8_MAX / 1.0))
            f8_max = tkl.Register[B, N_Q, N_KV, f32](_F8_MAX)

        @tkw.iterate(N_KV, init_args=[tkl.Register[B, H, N_Q, f32](-1e6), tkl.Register[B, H, N_Q, f32](0.0),
                                      tkl.Register[B, H, D_KV, N_Q, f32](0.0)])
        def kv_loop(m_old: tkl.Register[B, H, N_Q, f32], d_old: tkl.Register[B, H, N_Q, f32],
                    acc: tkl.Register[B, H, D_KV, N_Q, f32]):
            qr, kr = tkw.read(q, mapping=q_map), tkw.read(k, mapping=k_map)
            if use_fp8:
                qr, kr = tkw.cast(qr, f8), tkw.cast(kr, f8)
            scores = tkw.mma(kr, qr, tkl.Register[B, H, N_KV, N_Q, f32](0.0), mfma_variant[0])
            s = tkw.permute(scores, target_shape=[B, H, N_Q, N_KV])
            col = tkw.self_index(N_KV, tkl.i32)
            keep = tkw.broadcast(tkw.apply_expr(col, lambda x: x < N_KV), target_shape=[N_Q, N_KV])
            if is_causal:
                row = tkw.broadcast(tkw.self_index(N_Q, tkl.i32), target_shape=[N_Q, N_KV])
                keep = (row >= col) & keep
                if sliding_window_size > 0:
                    keep = (row - col <= window) & keep
            s = (s + tkw.select(tkw.cast(keep, tkw.i1), zero, neg)) * scaling
            m_new = tkw.max(s, m_old, dim=N_KV)
            rescale = tkw.exp2(m_old - m_new)
            p = tkw.exp2(s - m_new + f8_offset) if use_fp8 else tkw.exp2(s - m_new)
            d_new = tkw.sum(p, d_old * rescale, dim=N_KV)
            vr = tkw.read(v, mapping=v_map)
            if use_fp8:
                pc, vr = tkw.cast(tkw.minimum(p, f8_max), f8), tkw.cast(vr, f8)
            else:
                pc = tkw.cast(p, t_in)
            return m_new, d_new, tkw.mma(vr, pc, acc * rescale)

        _, total, acc = kv_loop
        res = acc * tkw.reciprocal(total)
        if use_fp8:
            res = res * v_dequant
        if t_out != f32:
            res = tkw.cast(res, t_out)
        tkw.write(res, c, mapping=out_map)

    hp = {AS: SHARED_ADDRESS_SPACE, BLOCK_B: 1, BLOCK_H: 1, BLOCK_N_Q: 128, BLOCK_D_KV: 128, BLOCK_N_KV: 32,
          B: shape.num_seqs, H: shape.num_query_heads, H_KV: shape.num_kv_heads, N_Q: shape.query_seq_len,
          D_KV: shape.head_size_kv, D_Q: shape.head_size, N_KV: shape.kv_seq_len}
    return base_attention, hp, []
