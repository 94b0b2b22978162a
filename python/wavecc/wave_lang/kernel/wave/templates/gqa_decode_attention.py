"""Wave's wave_lang.kernel.wave.templates.gqa_decode_attention, written for wavecc's tracer.

Grouped-query flash decoding (one query token per sequence, H_Q query heads sharing H_KV kv heads) in two
kernels. Phase 0: workgroup z takes kv split u (SPLIT_OFF = u * ceil(N_KV / U) keys, SPLIT_LEN of them), workgroup
y a block of HEAD_BLOCK_SIZE query heads and, through apply_fn, the kv head they share; it loops over its keys in
BLOCK_N_KV tiles with an online softmax (scores scaled by layer_scaling * log2 e, keys past the split masked) and,
when its split is not empty, writes its partial output [U, B, D_KV, H_Q] and log-sum-exp [U, B, H_Q]. Phase 1
merges the U splits (as decode_attention's phase 1) into out[B, H_Q, D_KV] in f16. k and v are [B, N_KV, H_KV, D]
(their MemoryLayout is their own shape). Returns (phase_0, phase_1, symbols_0, symbols_1).
"""
import math

import sympy

from ... import lang as tkl
from ... import wave as tkw
from ...lang.global_symbols import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE, WORKGROUP_2
from ..constraints import MMAType  # noqa: F401  (Wave's module imports it)
from .attention_common import (AttentionShape, H_Q, H_KV, N_KV, D_Q, D_KV, BLOCK_H_Q, BLOCK_H_KV,  # noqa: F401
                               BLOCK_N_KV, BLOCK_D_KV)

_TPW = 64
_HEAD_BLOCK = 32
_P1_BLOCK_HQ = 64


def _merge_splits(logits, logits_max, output, B, U, ept, out_map):
    """Phase 1: the online-softmax merge of the U partial results, written as f16."""
    f32 = tkl.f32

    @tkw.iterate(U, init_args=[tkl.Register[B, H_Q, f32](-1e6), tkl.Register[B, H_Q, f32](0.0),
                               tkl.Register[B, H_Q, D_KV, f32](0.0)])
    def merge(m_old: tkl.Register[B, H_Q, f32], d_old: tkl.Register[B, H_Q, f32],
              acc: tkl.Register[B, H_Q, D_KV, f32]):
        part = tkw.read(logits, elements_per_thread=ept)
        lse = tkw.read(logits_max, elements_per_thread=ept)
        m_new = tkw.maximum(lse, m_old)
        keep, take = tkw.exp2(m_old - m_new), tkw.exp2(lse - m_new)
        return m_new, d_old * keep + take, acc * keep + take * part

    _, total, acc = merge
    tkw.write(tkw.cast(acc / total, tkl.f16), output, mapping=out_map, elements_per_thread=ept)


def get_gqa_decode_attention_kernels(shape, mfma_variant, num_kv_splits, k_shape, v_shape, layer_scaling=None):
    B, U, SPLIT_OFF, SPLIT_LEN = tkl.sym.B, tkl.sym.U, tkl.sym.SPLIT_OFF, tkl.sym.SPLIT_LEN
    BLOCK_U, BLOCK_B, AS = tkl.sym.BLOCK_U, tkl.sym.BLOCK_B, tkl.sym.ADDRESS_SPACE
    f32 = tkl.f32
    ratio = shape.num_query_heads // shape.num_kv_heads
    per_split = math.ceil(shape.kv_seq_len / num_kv_splits)
    scale = (layer_scaling or math.sqrt(1.0 / shape.head_size)) * 1.44269504089
    groups = math.ceil(ratio / _HEAD_BLOCK)  # head blocks per kv head

    phase0_constraints = [
        tkw.WorkgroupConstraint(U, BLOCK_U, 2),
        tkw.TilingConstraint(N_KV, BLOCK_N_KV, iters=sympy.ceiling(SPLIT_LEN / BLOCK_N_KV), start=SPLIT_OFF),
        tkw.WorkgroupConstraint(H_KV, BLOCK_H_KV, 1, apply_fn=lambda wg: wg // groups,
                                iters=shape.num_query_heads // min(_HEAD_BLOCK, ratio)),
        tkw.WorkgroupConstraint(H_Q, BLOCK_H_Q, 1, primary=False),
        tkw.WaveConstraint(H_Q, BLOCK_H_Q / 1),
        tkw.WorkgroupConstraint(B, BLOCK_B, 0),
        tkw.HardwareConstraint(threads_per_wave=_TPW, mma_type=mfma_variant[1],
                               vector_shapes={H_KV: 0, B: 0, U: 1}),
    ]
    phase1_constraints = [
        tkw.WorkgroupConstraint(H_Q, BLOCK_H_Q, 0), tkw.WaveConstraint(H_Q, BLOCK_H_Q),
        tkw.WorkgroupConstraint(D_KV, BLOCK_D_KV, 1), tkw.WaveConstraint(D_KV, BLOCK_D_KV),
        tkw.WorkgroupConstraint(B, BLOCK_B, 2),
        tkw.TilingConstraint(U, BLOCK_U),
        tkw.HardwareConstraint(threads_per_wave=_TPW, mma_type=mfma_variant[1],
                               vector_shapes={B: 0, H_Q: BLOCK_H_Q, D_KV: BLOCK_D_KV, U: 1}),
    ]

    def ident(*dims):
        its = [tkw.IndexMapping.iterator(i) for i in range(len(dims))]
        m = dict(zip(dims, its))
        return tkw.IndexMapping(num_iterators=len(dims), inputs=m, outputs=m)

    k_map, v_map = ident(B, H_KV, N_KV, D_Q), ident(B, H_KV, D_KV, N_KV)
    k_layout, v_layout = tkl.MemoryLayout(shape=k_shape), tkl.MemoryLayout(shape=v_shape)

    @tkw.wave(phase0_constraints)
    def phase_0(q: tkl.Memory[B, H_Q, D_Q, GLOBAL_ADDRESS_SPACE, tkl.f16],
                k: tkl.Memory[B, N_KV, H_KV, D_Q, AS, tkl.f16, k_layout],
                v: tkl.Memory[B, N_KV, H_KV, D_KV, AS, tkl.f16, v_layout],
                output: tkl.Memory[U, B, D_KV, H_Q, GLOBAL_ADDRESS_SPACE, f32],
                output_max: tkl.Memory[U, B, H_Q, GLOBAL_ADDRESS_SPACE, f32]):
        scaling = tkl.Register[B, H_Q, N_KV, f32](scale)
        zero, neg = tkl.Register[H_Q, N_KV, f32](0.0), tkl.Register[H_Q, N_KV, f32](-1e6)

        @tkw.iterate(N_KV, init_args=[tkl.Register[B, H_Q, f32](-1e6), tkl.Register[B, H_Q, f32](0.0),
                                      tkl.Register[B, D_KV, H_Q, f32](0.0)])
        def kv_loop(m_old: tkl.Register[B, H_Q, f32], d_old: tkl.Register[B, H_Q, f32],
                    acc: tkl.Register[B, D_KV, H_Q, f32]):
            scores = tkw.mma(tkw.read(k, mapping=k_map), tkw.read(q), tkl.Register[B, N_KV, H_Q, f32](0.0),
                             mfma_variant[0])
            s = tkw.permute(scores, target_shape=[B, H_Q, N_KV])
            col = tkw.self_index(N_KV, tkl.i32)
            inside = tkw.cast(tkw.broadcast(tkw.apply_expr(col, lambda x: x < (SPLIT_OFF + SPLIT_LEN)),
                                            target_shape=[H_Q, N_KV]), tkw.i1)
            s = (s + tkw.select(inside, zero, neg)) * scaling
            m_new = tkw.max(s, m_old, dim=N_KV)
            rescale = tkw.exp2(m_old - m_new)
            p = tkw.exp2(s - m_new)
            d_new = tkw.sum(p, d_old * rescale, dim=N_KV)
            acc = tkw.mma(tkw.read(v, mapping=v_map), tkw.cast(p, tkl.f16), acc * rescale)
            return m_new, d_new, acc

        m, total, acc = kv_loop

        @tkw.conditional(SPLIT_LEN > 0)
        def nonempty():
            tkw.write(m + tkw.log2(total), output_max)
            tkw.write(acc * tkw.reciprocal(total), output)

    out_map = ident(B, H_Q, D_KV)

    @tkw.wave(phase1_constraints)
    def phase_1(logits: tkl.Memory[U, B, D_KV, H_Q, GLOBAL_ADDRESS_SPACE, f32],
                logits_max: tkl.Memory[U, B, H_Q, GLOBAL_ADDRESS_SPACE, f32],
                output: tkl.Memory[B, H_Q, D_KV, GLOBAL_ADDRESS_SPACE, tkl.f16]):
        _merge_splits(logits, logits_max, output, B, U, _P1_BLOCK_HQ // _TPW, out_map)

    off = WORKGROUP_2 * per_split
    symbols_0 = {AS: SHARED_ADDRESS_SPACE, BLOCK_H_KV: 1, BLOCK_H_Q: _HEAD_BLOCK, BLOCK_B: 1, BLOCK_U: 1,
                 BLOCK_N_KV: 32, H_Q: shape.num_query_heads, D_KV: shape.head_size_kv, D_Q: shape.head_size,
                 N_KV: shape.kv_seq_len, H_KV: shape.num_kv_heads, B: shape.num_seqs, U: num_kv_splits,
                 SPLIT_OFF: off, SPLIT_LEN: sympy.Min(shape.kv_seq_len, off + per_split) - off}
    symbols_1 = dict(symbols_0)
    symbols_1.update({BLOCK_H_Q: _P1_BLOCK_HQ, BLOCK_D_KV: 1})
    return phase_0, phase_1, symbols_0, symbols_1
