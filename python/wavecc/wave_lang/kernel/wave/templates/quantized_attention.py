"""Wave's wave_lang.kernel.wave.templates.quantized_attention, written for wavecc's tracer.

get_brevitas_pertensor_fp8_attention_kernel: attention with per-tensor fp8 quantisation (Brevitas' scheme):
q, k and v (in logit_dtype, f16 by default) are cast to f8_dtype for the two MMAs; the scores are masked past
N_KV (causal: k > q), scaled by 1/sqrt(D_Q) * log2 e * q_scale * k_scale; the probabilities are offset by
log2(f8 max) so that they use the f8 range, clamped to it and cast to f8; the result is divided by the sum and
multiplied by v_scale. q[B, N_Q, D_Q], k[B, N_KV, D_Q], v[B, N_KV, N], out[B, N_Q, N] (f32; N is the v head
size, Wave's D_KV). Returns (kernel, hyperparams, dynamic_symbols).
"""
import math

from ... import lang as tkl
from ... import wave as tkw
from ...lang.global_symbols import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE
from ..constraints import MMAType
from ..utils.mma_utils import get_mfma_load_elems_per_thread, get_mfma_store_elems_per_thread
from ._common import F16, wave_dtype
from .attention_common import AttentionShape  # noqa: F401

_F8_MAX = {"f8e4m3fnuz": 240.0, "f8e4m3fn": 448.0, "f8e5m2fnuz": 57344.0, "f8e5m2": 57344.0}


def get_brevitas_pertensor_fp8_attention_kernel(shape, mfma_variant, logit_dtype=F16, f8_dtype="float8_e4m3fnuz",
                                                dynamic_dims=False, is_causal=False, q_scale=1.0, k_scale=1.0,
                                                v_scale=1.0):
    S = tkl.sym
    B, N_Q, D_KV, D_Q, N_KV = S.B, S.N_Q, S.N, S.D_Q, S.N_KV
    BLOCK_B, BLOCK_N_Q, BLOCK_D_KV, BLOCK_N_KV, AS = S.BLOCK_B, S.BLOCK_N_Q, S.BLOCK_D_KV, S.BLOCK_N_KV, \
        S.ADDRESS_SPACE
    qk_ept, pv_ept, st_ept = S.LOAD_ELEMS_PER_THREAD_QK, S.LOAD_ELEMS_PER_THREAD_PV, S.STORE_ELEMS_PER_THREAD
    t_logit, t_f8 = wave_dtype(logit_dtype), wave_dtype(f8_dtype)
    f8_max = _F8_MAX[t_f8.format_name]
    f32 = tkl.f32
    vec = 32 if mfma_variant[0] == MMAType.F32_32x32x16_F8 else 16
    constraints = [
        tkw.WorkgroupConstraint(N_Q, BLOCK_N_Q, 0),
        tkw.WorkgroupConstraint(D_KV, BLOCK_D_KV, 1),
        tkw.WorkgroupConstraint(B, BLOCK_B, 2),
        tkw.TilingConstraint(N_KV, BLOCK_N_KV),
        tkw.WaveConstraint(N_Q, BLOCK_N_Q / 4),
        tkw.WaveConstraint(D_KV, BLOCK_D_KV / 1),
        tkw.HardwareConstraint(threads_per_wave=64, mma_type=mfma_variant[1],
                               vector_shapes={B: 0, N_Q: vec, D_KV: vec}),
    ]
    if dynamic_dims:
        constraints.append(tkw.Assumption(N_KV > BLOCK_N_KV * 4))
    i, j, k = (tkw.IndexMapping.iterator(x) for x in range(3))
    out_map = tkw.IndexMapping(num_iterators=3, inputs={B: i, D_KV: j, N_Q: k}, outputs={B: i, N_Q: k, D_KV: j})
    v_map = tkw.IndexMapping(num_iterators=3, inputs={B: i, D_KV: j, N_KV: k}, outputs={B: i, D_KV: j, N_KV: k})
    to_f8 = (lambda r: r) if t_logit == t_f8 else (lambda r: tkw.cast(r, t_f8))

    @tkw.wave(constraints)
    def base_attention(q: tkl.Memory[B, N_Q, D_Q, GLOBAL_ADDRESS_SPACE, t_logit],
                       k: tkl.Memory[B, N_KV, D_Q, AS, t_logit], v: tkl.Memory[B, N_KV, D_KV, AS, t_logit],
                       c: tkl.Memory[B, N_Q, D_KV, GLOBAL_ADDRESS_SPACE, f32]):
        scaling = tkl.Register[B, N_Q, N_KV, f32](math.sqrt(1.0 / shape.head_size) * 1.44269504089 * q_scale * k_scale)
        v_dequant = tkl.Register[B, D_KV, N_Q, f32](v_scale)
        offset = tkl.Register[B, N_Q, N_KV, f32](math.log2(f8_max / 1.0))
        top = tkl.Register[B, N_Q, N_KV, f32](f8_max)
        zero, neg = tkl.Register[N_Q, N_KV, f32](0.0), tkl.Register[N_Q, N_KV, f32](-1e6)

        @tkw.iterate(N_KV, init_args=[tkl.Register[B, N_Q, f32](-1e6), tkl.Register[B, N_Q, f32](0.0),
                                      tkl.Register[B, D_KV, N_Q, f32](0.0)])
        def kv_loop(m_old: tkl.Register[B, N_Q, f32], d_old: tkl.Register[B, N_Q, f32],
                    acc: tkl.Register[B, D_KV, N_Q, f32]):
            scores = tkw.mma(to_f8(tkw.read(k, elements_per_thread=qk_ept)),
                             to_f8(tkw.read(q, elements_per_thread=qk_ept)),
                             tkl.Register[B, N_KV, N_Q, f32](0.0), mfma_variant[0])
            s = tkw.permute(scores, target_shape=[B, N_Q, N_KV])
            col = tkw.self_index(N_KV, tkl.i64)
            keep = tkw.broadcast(tkw.apply_expr(col, lambda x: x < N_KV), target_shape=[N_Q, N_KV])
            if is_causal:
                keep = (tkw.broadcast(tkw.self_index(N_Q, tkl.i64), target_shape=[N_Q, N_KV]) >= col) & keep
            s = (s + tkw.select(tkw.cast(keep, tkw.i1), zero, neg)) * scaling
            m_new = tkw.max(s, m_old, dim=N_KV)
            rescale = tkw.exp2(m_old - m_new)
            p = tkw.exp2(s - m_new + offset)
            d_new = tkw.sum(p, d_old * rescale, dim=N_KV)
            vr = to_f8(tkw.read(v, elements_per_thread=pv_ept, mapping=v_map))
            return m_new, d_new, tkw.mma(vr, tkw.cast(tkw.minimum(p, top), t_f8), acc * rescale)

        _, total, acc = kv_loop
        tkw.write(acc * tkw.reciprocal(total) * v_dequant, c, mapping=out_map, elements_per_thread=st_ept)

    hp = {AS: SHARED_ADDRESS_SPACE, qk_ept: get_mfma_load_elems_per_thread(mfma_variant[0]),
          pv_ept: get_mfma_load_elems_per_thread(mfma_variant[1]),
          st_ept: get_mfma_store_elems_per_thread(mfma_variant[1]), BLOCK_B: 1, BLOCK_N_Q: 128, BLOCK_D_KV: 64,
          BLOCK_N_KV: 64, B: shape.num_query_heads, N_Q: shape.query_seq_len, D_KV: shape.head_size_kv,
          D_Q: shape.head_size, N_KV: shape.kv_seq_len}
    dyn = []
    if dynamic_dims:
        dyn = [N_Q, D_KV, B, N_KV]
        for d in dyn:
            del hp[d]
    return base_attention, hp, dyn
