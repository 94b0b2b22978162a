"""Wave's wave_lang.kernel.wave.templates.prefill_attention, written for wavecc's tracer.

get_prefill_attention_kernel: attention over S packed sequences: q[N_Q, H, D_Q], k and v [N_KV, H_KV, D] hold
all the sequences' tokens one after the other; workgroup dim 3 takes sequence s, reads its start OFFSET and
length from offsets[S] and sequence_lengths[S] and sets them as symbols (set_symbol: N_Q and N_KV become the
sequence's length inside the kernel), so each query attends only its own sequence's keys (no causal mask; keys
past the length masked). H query heads share H_KV kv heads. q arrives scaled by 1/sqrt(D_Q) * log2 e. The
memories' MemoryLayouts (the packed token count) are the arrays' extents at a call: N_Q, N_KV and OFFSET are
dynamic symbols. Returns (kernel, hyperparams).
"""
import math

from ... import lang as tkl
from ... import wave as tkw
from ...lang.global_symbols import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE
from ..constraints import MMAType
from ..utils.mma_utils import get_mfma_load_elems_per_thread, get_mfma_store_elems_per_thread
from ._common import F16, wave_dtype
from .attention_common import (AttentionShape, H, H_KV, N_Q, N_KV, D_Q, D_KV, BLOCK_H, BLOCK_N_Q,  # noqa: F401
                               BLOCK_N_KV, BLOCK_D_KV)

_TILE = 64


def get_prefill_attention_kernel(shape, mfma_variant, q_shape, k_shape, v_shape, o_shape, input_dtype=F16,
                                 output_dtype="float32", size_dtype="int32"):
    t_in, t_out, t_size = wave_dtype(input_dtype), wave_dtype(output_dtype), wave_dtype(size_dtype)
    if t_in not in (tkl.f16, tkl.bf16):
        raise AssertionError("Unsupported input datatype: %s" % t_in)
    if not t_out.is_float_asm():
        raise AssertionError("Unsupported output datatype: %s" % t_out)
    if not t_size.is_int_asm():
        raise AssertionError("Expected seq to be int but got: %s" % t_size)
    S, OFFSET, BLOCK_S, AS = tkl.sym.S, tkl.sym.OFFSET, tkl.sym.BLOCK_S, tkl.sym.ADDRESS_SPACE
    qk_ept, pv_ept = tkl.sym.LOAD_ELEMS_PER_THREAD_QK, tkl.sym.LOAD_ELEMS_PER_THREAD_PV
    st_ept = tkl.sym.STORE_ELEMS_PER_THREAD
    f32 = tkl.f32
    vec = 32 if mfma_variant[1] == MMAType.F32_32x32x8_F16 else 16
    constraints = [
        tkw.WorkgroupConstraint(N_Q, BLOCK_N_Q, 0, iters=math.ceil(shape.max_seq_len / _TILE)),
        tkw.WorkgroupConstraint(D_KV, BLOCK_D_KV, 1),
        tkw.WorkgroupConstraint(H, BLOCK_H, 2),
        tkw.WorkgroupConstraint(H_KV, BLOCK_H, 2, primary=False),
        tkw.WorkgroupConstraint(S, BLOCK_S, 3),
        tkw.TilingConstraint(N_KV, BLOCK_N_KV),
        tkw.WaveConstraint(N_Q, BLOCK_N_Q / 4),
        tkw.WaveConstraint(D_KV, BLOCK_D_KV / 1),
        tkw.HardwareConstraint(threads_per_wave=64, mma_type=mfma_variant[1],
                               vector_shapes={H: 0, H_KV: 0, N_Q: vec, D_KV: vec, S: 0}),
    ]
    ratio = shape.num_query_heads // shape.num_kv_heads
    i, j, k = (tkw.IndexMapping.iterator(x) for x in range(3))
    out_map = tkw.IndexMapping(num_iterators=3, inputs={H: i, D_KV: j, N_Q: k},
                               outputs={H: i, N_Q: k + OFFSET, D_KV: j})
    q_map = tkw.IndexMapping(num_iterators=3, inputs={H: i, N_Q: j + OFFSET, D_Q: k}, outputs={H: i, N_Q: j, D_Q: k})
    k_map = tkw.IndexMapping(num_iterators=3, inputs={H_KV: i // ratio, N_KV: j + OFFSET, D_Q: k},
                             outputs={H_KV: i, N_KV: j, D_Q: k})
    v_map = tkw.IndexMapping(num_iterators=3, inputs={H_KV: i // ratio, D_KV: j, N_KV: k + OFFSET},
                             outputs={H_KV: i, D_KV: j, N_KV: k})
    layout = tkl.MemoryLayout

    @tkw.wave(constraints)
    def prefill_attention(q: tkl.Memory[N_Q, H, D_Q, GLOBAL_ADDRESS_SPACE, t_in, layout(shape=q_shape)],
                          k: tkl.Memory[N_KV, H_KV, D_Q, AS, t_in, layout(shape=k_shape)],
                          v: tkl.Memory[N_KV, H_KV, D_KV, AS, t_in, layout(shape=v_shape)],
                          offsets: tkl.Memory[S, GLOBAL_ADDRESS_SPACE, t_size],
                          sequence_lengths: tkl.Memory[S, GLOBAL_ADDRESS_SPACE, t_size],
                          c: tkl.Memory[N_Q, H, D_KV, GLOBAL_ADDRESS_SPACE, t_out, layout(shape=o_shape)]):
        zero, neg = tkl.Register[H, N_Q, N_KV, f32](0.0), tkl.Register[H, N_Q, N_KV, f32](-1e6)
        tkw.set_symbol(OFFSET, tkw.read(offsets, elements_per_thread=1))
        length = tkw.read(sequence_lengths, elements_per_thread=1)
        tkw.set_symbol(N_Q, length)
        tkw.set_symbol(N_KV, length)

        @tkw.iterate(N_KV, init_args=[tkl.Register[H, N_Q, f32](-1e6), tkl.Register[H, N_Q, f32](0.0),
                                      tkl.Register[H, D_KV, N_Q, f32](0.0)])
        def kv_loop(m_old: tkl.Register[H, N_Q, f32], d_old: tkl.Register[H, N_Q, f32],
                    acc: tkl.Register[H, D_KV, N_Q, f32]):
            scores = tkw.mma(tkw.read(k, elements_per_thread=qk_ept, mapping=k_map),
                             tkw.read(q, elements_per_thread=qk_ept, mapping=q_map),
                             tkl.Register[H, N_KV, N_Q, f32](0.0), mfma_variant[0])
            s = tkw.permute(scores, target_shape=[H, N_Q, N_KV])
            keep = tkw.broadcast(tkw.apply_expr(tkw.self_index(N_KV, tkl.i32), lambda x: x < N_KV),
                                 target_shape=[H, N_Q, N_KV])
            s = s + tkw.select(tkw.cast(keep, tkw.i1), zero, neg)
            m_new = tkw.max(s, m_old, dim=N_KV)
            rescale = tkw.exp2(m_old - m_new)
            p = tkw.exp2(s - m_new)
            d_new = tkw.sum(p, d_old * rescale, dim=N_KV)
            vr = tkw.read(v, elements_per_thread=pv_ept, mapping=v_map)
            return m_new, d_new, tkw.mma(vr, tkw.cast(p, t_in), acc * rescale)

        _, total, acc = kv_loop
        res = acc * tkw.reciprocal(total)
        if t_out != f32:
            res = tkw.cast(res, t_out)
        tkw.write(res, c, mapping=out_map, elements_per_thread=st_ept)

    hp = {AS: SHARED_ADDRESS_SPACE, qk_ept: get_mfma_load_elems_per_thread(mfma_variant[0]),
          pv_ept: get_mfma_load_elems_per_thread(mfma_variant[1]),
          st_ept: get_mfma_store_elems_per_thread(mfma_variant[1]), BLOCK_H: 1, BLOCK_N_Q: _TILE,
          BLOCK_D_KV: _TILE, BLOCK_N_KV: _TILE, BLOCK_S: 1, H: shape.num_query_heads, H_KV: shape.num_kv_heads,
          D_KV: shape.head_size_kv, D_Q: shape.head_size, S: shape.num_seqs}
    return prefill_attention, hp
