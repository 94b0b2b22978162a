"""Wave's wave_lang.kernel.wave.templates.tagged_attention, written for wavecc's tracer.

get_tagged_bshd_attention_kernel: GQA flash attention over q[B, N_Q, H, D_Q], k and v [B, N_KV, H_KV, D], out
[B, N_Q, H, D_KV], q scaled by 1/sqrt(D_Q) * log2 e in f16, with every op tagged (read_q, mma_qk, softmax0_*,
softmax1_*, mma_pv, write_output, ...) for Wave's manual schedules; wavecc accepts the tags and schedules the
kernel itself. As in Wave's template, the causal mask is k <= q alone (it replaces the k < N_KV mask).
Returns (kernel, hyperparams, dynamic_symbols).
"""
import math

from ... import lang as tkl
from ... import wave as tkw
from ...lang.global_symbols import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE
from ..constraints import MMAType
from .attention_common import AttentionShape  # noqa: F401

_VEC = {MMAType.F32_16x16x16_F16: (16, 64), MMAType.F32_16x16x32_F16: (16, 64), MMAType.F32_32x32x8_F16: (32, 64),
        MMAType.RDNA4_WAVE32_F32_16x16x16_F16: (16, 32)}


def get_tagged_bshd_attention_kernel(shape, mfma_variant, dynamic_dims, is_causal=False, num_waves=8):
    sy = tkl.sym
    B, N_Q, N_KV, D_Q, D_KV, H, H_KV = sy.B, sy.N_Q, sy.N_KV, sy.D_Q, sy.D_KV, sy.H, sy.H_KV
    BLOCK_B, BLOCK_N_Q, BLOCK_N_KV, BLOCK_D_KV, BLOCK_H, AS = \
        sy.BLOCK_B, sy.BLOCK_N_Q, sy.BLOCK_N_KV, sy.BLOCK_D_KV, sy.BLOCK_H, sy.ADDRESS_SPACE
    if mfma_variant[1] not in _VEC:
        raise ValueError("Unsupported MMA variant: %s" % (mfma_variant[1],))
    vec, tpw = _VEC[mfma_variant[1]]
    if shape.num_kv_heads <= 0:
        raise ValueError("num_kv_heads must be positive, got %s" % shape.num_kv_heads)
    if shape.num_query_heads % shape.num_kv_heads:
        raise ValueError("num_query_heads (%d) must be divisible by num_kv_heads (%d) for GQA"
                         % (shape.num_query_heads, shape.num_kv_heads))
    ratio = shape.num_query_heads // shape.num_kv_heads
    f32 = tkl.f32
    constraints = [
        tkw.WorkgroupConstraint(N_Q, BLOCK_N_Q, 0),
        tkw.WorkgroupConstraint(D_KV, BLOCK_D_KV, 1),
        tkw.WorkgroupConstraint(B, BLOCK_B, 2),
        tkw.WorkgroupConstraint(H, BLOCK_H, 3),
        tkw.WorkgroupConstraint(H_KV, BLOCK_H, 3, primary=False),
        tkw.TilingConstraint(N_KV, BLOCK_N_KV),
        tkw.WaveConstraint(N_Q, BLOCK_N_Q / num_waves),
        tkw.WaveConstraint(D_KV, BLOCK_D_KV / 1),
        tkw.HardwareConstraint(threads_per_wave=tpw, mma_type=mfma_variant[1],
                               vector_shapes={B: 0, H: 0, H_KV: 0, N_Q: vec, D_KV: vec}),
    ]
    if dynamic_dims:
        constraints.append(tkw.Assumption(N_KV > BLOCK_N_KV * 4))
    i, j, k, l_ = (tkw.IndexMapping.iterator(x) for x in range(4))
    out_map = tkw.IndexMapping(num_iterators=4, inputs={B: i, H: j, D_KV: k, N_Q: l_},
                               outputs={B: i, N_Q: l_, H: j, D_KV: k})
    q_map = tkw.IndexMapping(num_iterators=4, inputs={B: i, H: j, N_Q: k, D_Q: l_},
                             outputs={B: i, H: j, N_Q: k, D_Q: l_})
    k_map = tkw.IndexMapping(num_iterators=4, inputs={B: i, H_KV: j // ratio, N_KV: k, D_Q: l_},
                             outputs={B: i, H_KV: j, N_KV: k, D_Q: l_})
    v_map = tkw.IndexMapping(num_iterators=4, inputs={B: i, H_KV: j // ratio, D_KV: k, N_KV: l_},
                             outputs={B: i, H_KV: j, D_KV: k, N_KV: l_})
    scale = math.sqrt(1.0 / shape.head_size) * 1.44269504089

    @tkw.wave(constraints)
    def tagged_attention(q: tkl.Memory[B, N_Q, H, D_Q, GLOBAL_ADDRESS_SPACE, tkl.f16],
                         k: tkl.Memory[B, N_KV, H_KV, D_Q, AS, tkl.f16],
                         v: tkl.Memory[B, N_KV, H_KV, D_KV, AS, tkl.f16],
                         c: tkl.Memory[B, N_Q, H, D_KV, GLOBAL_ADDRESS_SPACE, f32]):
        q_scale = tkl.Register[B, H, N_Q, D_Q, tkl.f16](scale)
        zero, neg = tkl.Register[N_Q, N_KV, f32](0.0), tkl.Register[N_Q, N_KV, f32](-1e6)

        @tkw.iterate(N_KV, init_args=[tkl.Register[B, H, N_Q, f32](-1e6), tkl.Register[B, H, N_Q, f32](0.0),
                                      tkl.Register[B, H, D_KV, N_Q, f32](0.0)], tag="n_kv_loop")
        def repeat(m_old: tkl.Register[B, H, N_Q, f32], d_old: tkl.Register[B, H, N_Q, f32],
                   acc: tkl.Register[B, H, D_KV, N_Q, f32]):
            start = tkw.register((B, H, N_KV, N_Q), f32, 0.0, tag="mma_qk_init")
            qr = tkw.tag(tkw.read(q, mapping=q_map, tag="read_q") * q_scale, "softmax0_scale")
            scores = tkw.mma(tkw.read(k, mapping=k_map, tag="read_k"), qr, start, mfma_variant[0], tag="mma_qk")
            s = tkw.permute(scores, target_shape=[B, H, N_Q, N_KV], tag="softmax0_permute")
            col = tkw.self_index(N_KV, tkl.i32, tag="softmax0_self_index_kv")
            keep = tkw.broadcast(tkw.apply_expr(col, lambda x: x < N_KV, tag="softmax0_apply_expr"),
                                 target_shape=[N_Q, N_KV], tag="softmax0_broadcast_mask")
            if is_causal:
                row = tkw.broadcast(tkw.self_index(N_Q, tkl.i32, tag="softmax0_self_index_q"),
                                    target_shape=[N_Q, N_KV], tag="softmax0_broadcast_q")
                keep = tkw.tag(row >= col, "softmax0_causal_cmp")
                keep = tkw.tag(keep & keep, "softmax0_causal_and")
            bias = tkw.select(tkw.cast(keep, tkw.i1, tag="softmax0_cast_mask"), zero, neg, tag="softmax0_select_bias")
            s = tkw.tag(s + bias, "softmax0_add_bias")
            m_new = tkw.max(s, m_old, dim=N_KV, tag="softmax0_max")
            rescale = tkw.exp2(tkw.tag(m_old - m_new, "softmax0_sub_delta"), tag="softmax0_exp_delta")
            p = tkw.exp2(tkw.tag(s - m_new, "softmax1_sub_x"), tag="softmax1_exp")
            d_new = tkw.sum(p, tkw.tag(d_old * rescale, "softmax1_mul_init"), dim=N_KV, tag="softmax1_sum")
            pc = tkw.cast(p, tkl.f16, tag="softmax1_cast")
            scaled = tkw.tag(acc * rescale, "softmax1_scale")
            acc = tkw.mma(tkw.read(v, mapping=v_map, tag="read_v"), pc, scaled, mfma_variant[1], tag="mma_pv")
            return m_new, d_new, acc

        _, total, acc = repeat
        res = tkw.tag(acc * tkw.reciprocal(total, tag="epilog_reciprocal"), "epilog_normalize")
        tkw.write(res, c, mapping=out_map, tag="write_output")

    hp = {AS: SHARED_ADDRESS_SPACE, BLOCK_B: 1, BLOCK_H: 1, BLOCK_N_Q: 128 * (num_waves // 4),
          BLOCK_D_KV: shape.head_size_kv, BLOCK_N_KV: 64, B: 1, H: shape.num_query_heads, H_KV: shape.num_kv_heads,
          N_Q: shape.query_seq_len, D_KV: shape.head_size_kv, D_Q: shape.head_size, N_KV: shape.kv_seq_len}
    dyn = []
    if dynamic_dims:
        dyn = [N_Q, D_KV, B, N_KV]
        for d in dyn:
            del hp[d]
    return tagged_attention, hp, dyn
