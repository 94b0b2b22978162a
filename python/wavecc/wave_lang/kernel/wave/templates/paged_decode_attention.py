"""Wave's wave_lang.kernel.wave.templates.paged_decode_attention, written for wavecc's tracer.

Paged flash decoding (one query token per sequence; MHA, MQA or GQA) in two kernels over a kv cache whose rows
are gathered through kv_indices (the block table):

- Phase 0: workgroup x takes sequence s, z a kv split u, y a block of query heads (GQA: and, through apply_fn,
  their kv head). The sequence's keys are kv_indices[request_indices[s] .. request_indices[s + 1]); K2 is set to
  the end of them, KV_START_IDX to the start, and the split to SPLIT_OFF = u * ceil(len / U), SPLIT_LEN keys. The
  loop over its keys reads k and v rows through kv_indices (a dynamic value), scales the scores by
  layer_scaling * log2 e (optionally soft-capped through tanh), masks keys past the split and folds them in with
  an online softmax. A non-empty split writes its partial output [U, S, B, N] and log-sum-exp [U, S, B]; an
  empty one writes its initial values.
- Phase 1: per sequence, merges its min(len, U) active splits into out[S, B, N] (output_dtype).

get_paged_decode_intermediate_arrays_shapes gives phase 0's output shapes. Returns (phase_0, phase_1, symbols_0,
symbols_1, dynamic_symbols_0, dynamic_symbols_1).

request_indices has S + 1 entries (Wave declares it Memory[S] and reads past it): here it is Memory[SP1], SP1 a
dynamic symbol (in both dynamic_symbols lists). Phase 1 compiles and runs (its loop runs the SPLITS_ACTIVE trips
the kernel sets), also with more than 64 query heads (query heads over lanes); the compiler rejects phase 0 (its
loop starts at SPLIT_OFF + KV_START_IDX, set from one value per split) with a located error.
"""
import math
from collections import namedtuple

import sympy

from ... import lang as tkl
from ... import wave as tkw
from ...lang.global_symbols import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE
from ..constraints import MMAType  # noqa: F401  (Wave's module imports it)
from ..utils.general_utils import ceildiv
from ._common import F16, wave_dtype

paged_decode_attention_shape = namedtuple(
    "paged_decode_attention_shape",
    ["num_query_heads", "num_kv_heads", "head_size", "head_size_kv", "block_size", "num_seqs"])

_TPW = 64
_MMA_VEC = 16


def get_paged_decode_intermediate_arrays_shapes(shape, num_kv_splits):
    return ((num_kv_splits, shape.num_seqs, shape.num_query_heads, shape.head_size_kv),
            (num_kv_splits, shape.num_seqs, shape.num_query_heads))


def get_paged_decode_attention_kernels(shape, mfma_variant, num_kv_splits, input_dtype=F16, output_dtype=F16,
                                       layer_scaling=None, logit_cap=0.0):
    mha = shape.num_query_heads == shape.num_kv_heads
    t_in, t_out = wave_dtype(input_dtype), wave_dtype(output_dtype)
    f32 = tkl.f32
    sy = tkl.sym
    S, B, N, K1, N_KV, K2, U = sy.S, sy.B, sy.N, sy.K1, sy.N_KV, sy.K2, sy.U
    SP1 = sy.SP1
    SEQ_LEN, KV_START_IDX, SPLIT_OFF, SPLIT_LEN, SPLITS_ACTIVE = \
        sy.SEQ_LEN, sy.KV_START_IDX, sy.SPLIT_OFF, sy.SPLIT_LEN, sy.SPLITS_ACTIVE
    BH = B if mha else sy.BH
    BLOCK_B, BLOCK_BH, BLOCK_N, BLOCK_U, BLOCK_K2, BLOCK_S = \
        sy.BLOCK_B, sy.BLOCK_BH, sy.BLOCK_N, sy.BLOCK_U, sy.BLOCK_K2, sy.BLOCK_S
    AS = sy.ADDRESS_SPACE

    heads_in_phase1 = shape.num_query_heads > 64  # phase 1 spreads query heads over lanes, else head elements
    if heads_in_phase1:
        p1_block_b, p1_n_waves, p1_block_n = 64, 1, 16
    else:
        p1_n_waves = ceildiv(shape.head_size_kv, 64)
        p1_block_b, p1_block_n = 1, 64 * p1_n_waves
    ratio = shape.num_query_heads // shape.num_kv_heads
    b_waves = 1 if mha else min(max(ratio // _MMA_VEC, 1), 4)
    head_block = min(_MMA_VEC * b_waves, ratio)
    cap = logit_cap * 1.44269504089
    scale = (layer_scaling or math.sqrt(1.0 / shape.head_size)) * 1.44269504089

    kv_tiling = tkw.TilingConstraint(K2, BLOCK_K2, iters=sympy.ceiling(SPLIT_LEN / BLOCK_K2),
                                     start=SPLIT_OFF + KV_START_IDX)
    if mha:
        c0 = [tkw.WorkgroupConstraint(U, BLOCK_U, 2), kv_tiling, tkw.WorkgroupConstraint(B, BLOCK_B, 1),
              tkw.WaveConstraint(B, BLOCK_B / b_waves), tkw.WorkgroupConstraint(S, BLOCK_S, 0),
              tkw.HardwareConstraint(threads_per_wave=_TPW, mma_type=mfma_variant[1], vector_shapes={S: 0, U: 1})]
    else:
        blocks_per_kv = math.ceil(ratio / head_block)
        c0 = [tkw.WorkgroupConstraint(U, BLOCK_U, 2), kv_tiling,
              tkw.WorkgroupConstraint(BH, BLOCK_BH, 1, apply_fn=lambda wg: wg // blocks_per_kv,
                                      iters=ceildiv(shape.num_query_heads, min(head_block, ratio))),
              tkw.WorkgroupConstraint(B, BLOCK_B, 1, primary=False), tkw.WaveConstraint(B, BLOCK_B / b_waves),
              tkw.WorkgroupConstraint(S, BLOCK_S, 0),
              tkw.HardwareConstraint(threads_per_wave=_TPW, mma_type=mfma_variant[1],
                                     vector_shapes={BH: 0, S: 0, U: 1})]
    c1 = ([tkw.WorkgroupConstraint(B, BLOCK_B, 0), tkw.WorkgroupConstraint(N, BLOCK_N, 1)] if heads_in_phase1 else
          [tkw.WorkgroupConstraint(B, BLOCK_B, 1), tkw.WorkgroupConstraint(N, BLOCK_N, 0)])
    c1 += [tkw.WaveConstraint(B, BLOCK_B // 1), tkw.WaveConstraint(N, BLOCK_N // p1_n_waves),
           tkw.WorkgroupConstraint(S, BLOCK_S, 2), tkw.TilingConstraint(U, BLOCK_U, iters=SPLITS_ACTIVE),
           tkw.HardwareConstraint(threads_per_wave=_TPW, mma_type=mfma_variant[1],
                                  vector_shapes={S: 0, B: BLOCK_B // 1,
                                                 N: 1 if heads_in_phase1 else BLOCK_N // p1_n_waves, U: 1})]

    i, j, k, l_ = (tkw.IndexMapping.iterator(x) for x in range(4))
    d0 = tkw.IndexMapping.dynamic_val(0)
    out_map = tkw.IndexMapping(num_iterators=3, inputs={S: i, B: j, N: k}, outputs={S: i, B: j, N: k})
    next_start = tkw.IndexMapping(num_iterators=1, inputs={SP1: i + 1}, outputs={S: i})
    this_start = tkw.IndexMapping(num_iterators=1, inputs={SP1: i}, outputs={S: i})
    k_map = tkw.IndexMapping(num_iterators=4, inputs={N_KV: d0, BH: j, K1: l_}, outputs={S: i, BH: j, K2: k, K1: l_},
                             dynamic_val_mappings={K2: k})
    v_map = tkw.IndexMapping(num_iterators=4, inputs={N_KV: d0, BH: j, N: k}, outputs={S: i, BH: j, N: k, K2: l_},
                             dynamic_val_mappings={K2: l_})
    logits_map = tkw.IndexMapping(num_iterators=4, inputs={U: i, S: j, N: k, B: l_},
                                  outputs={U: i, S: j, N: k, B: l_})

    @tkw.wave(c0)
    def phase_0(q: tkl.Memory[S, B, K1, GLOBAL_ADDRESS_SPACE, t_in], k: tkl.Memory[N_KV, BH, K1, AS, t_in],
                v: tkl.Memory[N_KV, BH, N, AS, t_in], request_indices: tkl.Memory[SP1, GLOBAL_ADDRESS_SPACE, tkl.i32],
                kv_indices: tkl.Memory[K2, GLOBAL_ADDRESS_SPACE, tkl.i32],
                output: tkl.Memory[U, S, B, N, GLOBAL_ADDRESS_SPACE, f32],
                output_max: tkl.Memory[U, S, B, GLOBAL_ADDRESS_SPACE, f32]):
        scaling = tkl.Register[S, B, K2, f32](scale)
        cap_reg = tkl.Register[S, B, K2, f32](cap) if cap > 0 else None
        m0, d0_, acc0 = tkl.Register[S, B, f32](-1e6), tkl.Register[S, B, f32](0.0), tkl.Register[S, N, B, f32](0.0)
        zero, neg = tkl.Register[B, K2, f32](0.0), tkl.Register[B, K2, f32](-1e6)
        first = tkw.read(request_indices, mapping=this_start)
        end = tkw.read(request_indices, mapping=next_start)
        tkw.set_symbol(K2, end)
        length = end - first
        tkw.set_symbol(KV_START_IDX, first)
        tkw.set_symbol(SEQ_LEN, length)
        per_split = tkw.cast(tkw.apply_expr(length, lambda x: sympy.ceiling(x / U)), tkl.i32)
        offset = tkw.broadcast(tkw.self_index(U, tkl.i32), target_shape=[S, U]) * per_split
        tkw.set_symbol(SPLIT_OFF, offset)
        split_len = tkw.apply_expr([tkw.broadcast(per_split, target_shape=[S, U]),
                                    tkw.broadcast(length, target_shape=[S, U]), offset],
                                   lambda x, y, z: sympy.Min(x, sympy.Max(y - z, 0)))
        tkw.set_symbol(SPLIT_LEN, split_len)

        @tkw.iterate(K2, init_args=[m0, d0_, acc0])
        def kv_loop(m_old: tkl.Register[S, B, f32], d_old: tkl.Register[S, B, f32], acc: tkl.Register[S, N, B, f32]):
            rows_v = tkw.read(kv_indices)
            rows_k = tkw.read(kv_indices)
            scores = tkw.mma(tkw.read(k, mapping=k_map, mapping_dynamic_vals=(rows_k,)), tkw.read(q),
                             tkl.Register[S, K2, B, f32](0.0), mfma_variant[0])
            s = tkw.permute(scores, target_shape=[S, B, K2]) * scaling
            if cap_reg is not None:
                s = cap_reg * tkw.tanh_approx(s * tkw.reciprocal(cap_reg))
            inside = tkw.apply_expr(tkw.self_index(K2, tkl.i32), lambda x: x < (SPLIT_OFF + SPLIT_LEN + KV_START_IDX))
            s = s + tkw.select(tkw.cast(tkw.broadcast(inside, target_shape=[B, K2]), tkw.i1), zero, neg)
            m_new = tkw.max(s, m_old, dim=K2)
            rescale = tkw.exp2(m_old - m_new)
            p = tkw.exp2(s - m_new)
            d_new = tkw.sum(p, d_old * rescale, dim=K2)
            vr = tkw.read(v, mapping=v_map, mapping_dynamic_vals=(rows_v,))
            return m_new, d_new, tkw.mma(vr, tkw.cast(p, t_in), acc * rescale)

        m, total, acc = kv_loop

        @tkw.conditional(SPLIT_LEN > 0)
        def nonempty():
            tkw.write(m + tkw.log2(total), output_max)
            tkw.write(tkw.broadcast(acc * tkw.reciprocal(total), target_shape=[U, S, N, B]), output,
                      mapping=logits_map)

        @tkw.conditional(sympy.Eq(SPLIT_LEN, 0))
        def empty():
            tkw.write(m, output_max)
            tkw.write(tkw.broadcast(acc, target_shape=[U, S, N, B]), output, mapping=logits_map)

    @tkw.wave(c1)
    def phase_1(logits: tkl.Memory[U, S, B, N, GLOBAL_ADDRESS_SPACE, f32],
                logits_max: tkl.Memory[U, S, B, GLOBAL_ADDRESS_SPACE, f32],
                request_indices: tkl.Memory[SP1, GLOBAL_ADDRESS_SPACE, tkl.i32],
                output: tkl.Memory[S, B, N, GLOBAL_ADDRESS_SPACE, t_out]):
        first = tkw.read(request_indices, mapping=this_start)
        length = tkw.read(request_indices, mapping=next_start) - first
        tkw.set_symbol(SPLITS_ACTIVE, tkw.apply_expr(length, lambda x: sympy.Min(x, U)))

        @tkw.iterate(U, init_args=[tkl.Register[S, B, f32](-1e6), tkl.Register[S, B, f32](0.0),
                                   tkl.Register[S, B, N, f32](0.0)])
        def merge(m_old: tkl.Register[S, B, f32], d_old: tkl.Register[S, B, f32], acc: tkl.Register[S, B, N, f32]):
            part = tkw.read(logits, bounds={})  # [S, B, N] per split, the order of acc
            lse = tkw.read(logits_max, bounds={})
            m_new = tkw.maximum(lse, m_old)
            keep, take = tkw.exp2(m_old - m_new), tkw.exp2(lse - m_new)
            return m_new, d_old * keep + take, acc * keep + take * part

        _, total, acc = merge
        tkw.write(tkw.cast(acc / total, t_out), output, mapping=out_map, elements_per_thread=1)

    symbols_0 = {AS: SHARED_ADDRESS_SPACE, BLOCK_B: 1 if mha else head_block, BLOCK_S: 1, BLOCK_U: 1,
                 BLOCK_K2: 64 if mha else 16, B: shape.num_query_heads, N: shape.head_size_kv, K1: shape.head_size,
                 U: num_kv_splits}
    if not mha:
        symbols_0.update({BLOCK_BH: 1, BH: shape.num_kv_heads})
    symbols_1 = dict(symbols_0)
    symbols_1.update({BLOCK_B: p1_block_b, BLOCK_N: p1_block_n})
    return phase_0, phase_1, symbols_0, symbols_1, [K2, N_KV, S, SP1], [S, SP1]
