"""Wave's wave_lang.kernel.wave.templates.extend_attention, written for wavecc's tracer.

get_extend_attention_kernel: attention for sequences that extend a cached prefix (sglang's extend): workgroup
dim 3 takes sequence s (S - 1 of them: qo_indptr and kv_indptr have S entries), dim 0 a tile of its new tokens,
dim 2 a query head. The kernel reads the sequence's first new token EXT_IDX and count (qo_indptr), its prefix
start KV_START_IDX and length (kv_indptr) and sets them as symbols (N_Q and N_KV become the sequence's). A first
loop runs over the prefix, whose k and v rows come from k_cache and v_cache through kv_indices (dynamic values);
a second over the new tokens' k and v (causal: key <= query, and the loop stops at the tile's last row). Scores
are scaled by layer_scaling * log2 e, optionally soft-capped (tanh), masked past N_KV (use_custom_mask: and by
custom_mask[n_q * SEQ_LEN + MASK_START_IDX + n_kv (+ prefix length)], mask_offsets giving each sequence's start)
and folded in with one online softmax over both loops; out[N_Q, H, D_KV] (output_dtype). H query heads share
H_KV kv heads. MAX_EXTEND_SEQ_LEN (a SymbolBind argument) bounds the tiles along the new tokens.

The memories sharing N_KV have different extents (k and v: the new tokens, k_cache and v_cache: the pool,
kv_indices: the prefix rows; Wave's MemoryLayouts): a call launches N_KV (and N_Q) at the largest extent given and
pads the shorter arrays (the kernel's own extents are set inside). Returns (kernel, hyperparams,
dynamic_symbols).
"""
import math

import sympy

from ... import lang as tkl
from ... import wave as tkw
from ...lang.global_symbols import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE, WORKGROUP_0
from ..constraints import MMAType
from ..utils.mma_utils import get_mfma_load_elems_per_thread, get_mfma_store_elems_per_thread
from ._common import F16, wave_dtype
from .attention_common import (AttentionShape, H, H_KV, N_Q, N_KV, D_Q, D_KV, BLOCK_H, BLOCK_N_Q,  # noqa: F401
                               BLOCK_N_KV, BLOCK_D_KV)


def _first_dim_open(shape):
    return [None if i == 0 else x for i, x in enumerate(shape)]


def get_extend_attention_kernel(shape, mfma_variant, q_shape, k_shape, v_shape, k_cache_shape, v_cache_shape,
                                o_shape, input_dtype=F16, output_dtype="float32", size_dtype="int32",
                                is_causal=False, logit_cap=0.0, layer_scaling=None, num_waves=4,
                                use_custom_mask=False):
    return _extend(shape, mfma_variant, (q_shape, k_shape, v_shape, k_cache_shape, v_cache_shape, o_shape),
                   input_dtype, output_dtype, size_dtype, is_causal, logit_cap, layer_scaling, num_waves,
                   use_custom_mask, None)


def _extend(shape, mfma_variant, shapes, input_dtype, output_dtype, size_dtype, is_causal, logit_cap, layer_scaling,
            num_waves, use_custom_mask, max_rpe):
    """The extend kernel; max_rpe (not None) adds extend_attention_rpe's T5 bias to the second loop's scores."""
    q_shape, k_shape, v_shape, k_cache_shape, v_cache_shape, o_shape = shapes
    t_in, t_out, t_size = wave_dtype(input_dtype), wave_dtype(output_dtype), wave_dtype(size_dtype)
    if t_in not in (tkl.f16, tkl.bf16):
        raise AssertionError("Unsupported input datatype: %s" % t_in)
    if not t_out.is_float_asm():
        raise AssertionError("Unsupported output datatype: %s" % t_out)
    if not t_size.is_int_asm():
        raise AssertionError("Expected seq to be int but got: %s" % t_size)
    if is_causal and use_custom_mask:
        raise AssertionError("Cannot have both causal and custom mask at the same time")
    sy = tkl.sym
    S, EXT_IDX, KV_START_IDX, MAX_EXTEND_SEQ_LEN = sy.S, sy.EXT_IDX, sy.KV_START_IDX, sy.MAX_EXTEND_SEQ_LEN
    MASK_LEN, MASK_START_IDX, SEQ_LEN, PREFIX_LEN = sy.MASK_LEN, sy.MASK_START_IDX, sy.SEQ_LEN, sy.PREFIX_LEN
    BLOCK_S, AS = sy.BLOCK_S, sy.ADDRESS_SPACE
    qk_ept, pv_ept, st_ept = sy.LOAD_ELEMS_PER_THREAD_QK, sy.LOAD_ELEMS_PER_THREAD_PV, sy.STORE_ELEMS_PER_THREAD
    f32 = tkl.f32

    tile, kv_div = shape.block_size, 2
    if tile is None and max_rpe is None:
        tile, kv_div = (64, 2) if shape.max_seq_len <= 128 else (128, 4)
    cap = logit_cap * 1.44269504089
    scale = (layer_scaling or math.sqrt(1.0 / shape.head_size)) * 1.44269504089
    vec = 32 if mfma_variant[1] == MMAType.F32_32x32x8_F16 else 16

    h, h_kv, n_q, n_kv, d_q, d_kv, s_ = sy.h, sy.h_kv, sy.n_q, sy.n_kv, sy.d_q, sy.d_kv, sy.s
    constraints = [
        tkw.WorkgroupConstraint(N_Q, BLOCK_N_Q, 0, iters=sympy.ceiling(MAX_EXTEND_SEQ_LEN / tile)),
        tkw.WorkgroupConstraint(D_KV, BLOCK_D_KV, 1),
        tkw.WorkgroupConstraint(H, BLOCK_H, 2),
        tkw.WorkgroupConstraint(H_KV, BLOCK_H, 2, primary=False),
        tkw.WorkgroupConstraint(S, BLOCK_S, 3, iters=S - 1),
        tkw.TilingConstraint(N_KV, BLOCK_N_KV),
        tkw.WaveConstraint(N_Q, BLOCK_N_Q / num_waves),
        tkw.WaveConstraint(D_KV, BLOCK_D_KV / 1),
        tkw.HardwareConstraint(threads_per_wave=64, mma_type=mfma_variant[1],
                               vector_shapes={H: 0, H_KV: 0, N_Q: vec, D_KV: vec, S: 0}),
        tkw.IteratorBindings({h_kv: H_KV, d_kv: D_KV, n_kv: N_KV, h: H, n_q: N_Q, d_q: D_Q, s_: S}),
    ]
    ratio = shape.num_query_heads // shape.num_kv_heads
    lay = tkl.MemoryLayout
    seqs_layout, open_layout = lay(shape=[None]), lay(shape=[None])

    def core(q, k, v, k_cache, v_cache, qo_indptr, kv_indptr, kv_indices, custom_mask, mask_offsets, c, rpe=None):
        zero, neg = tkl.Register[N_Q, N_KV, f32](0.0), tkl.Register[N_Q, N_KV, f32](-1e6)
        scaling = tkl.Register[H, N_Q, N_KV, f32](scale)
        cap_reg = tkl.Register[H, N_Q, N_KV, f32](cap) if cap > 0 else None
        ext_start = tkw.read(qo_indptr, elements_per_thread=1)
        tkw.set_symbol(EXT_IDX, ext_start)
        ext_len = tkw.read(qo_indptr, elements_per_thread=1, source=(s_ + 1,), target=(s_,)) - ext_start
        tkw.set_symbol(N_Q, ext_len)
        kv_start = tkw.read(kv_indptr, elements_per_thread=1)
        tkw.set_symbol(KV_START_IDX, kv_start)
        prefix_len = tkw.read(kv_indptr, elements_per_thread=1, source=(s_ + 1,), target=(s_,)) - kv_start
        tkw.set_symbol(N_KV, prefix_len)
        if use_custom_mask:
            tkw.set_symbol(SEQ_LEN, prefix_len + ext_len)
            tkw.set_symbol(MASK_START_IDX, tkw.read(mask_offsets, elements_per_thread=1))

        def step(m_old, d_old, acc, k_reg, v_reader, mask_extra, causal, bias=None):
            """One kv tile folded into the online softmax (bias: a function giving a term added to the scores)."""
            qr = tkw.read(q, elements_per_thread=qk_ept, source=(n_q + EXT_IDX, h, d_q), target=(h, n_q, d_q))
            sc = tkw.mma(k_reg, qr, tkl.Register[H, N_KV, N_Q, f32](0.0), mfma_variant[0])
            x = tkw.permute(sc, target_shape=[H, N_Q, N_KV]) * scaling
            if bias is not None:
                x = x + bias()
            if cap_reg is not None:
                x = cap_reg * tkw.tanh_approx(x * tkw.reciprocal(cap_reg))
            col = tkw.self_index(N_KV, tkl.i32)
            keep = tkw.broadcast(tkw.apply_expr(col, lambda i: i < N_KV), target_shape=[N_Q, N_KV])
            if causal:
                keep = (tkw.broadcast(tkw.self_index(N_Q, tkl.i32), target_shape=[N_Q, N_KV]) >= col) & keep
            keep = tkw.cast(keep, tkw.i1)
            if use_custom_mask:
                user = tkw.read(custom_mask, elements_per_thread=st_ept,
                                source=(n_q * SEQ_LEN + MASK_START_IDX + n_kv + mask_extra,), target=(n_q, n_kv))
                keep = keep & tkw.cast(user, tkw.i1)
            x = x + tkw.select(keep, zero, neg)
            m_new = tkw.max(x, m_old, dim=N_KV)
            rescale = tkw.exp2(m_old - m_new)
            p = tkw.exp2(x - m_new)
            d_new = tkw.sum(p, d_old * rescale, dim=N_KV)
            return m_new, d_new, tkw.mma(v_reader(), tkw.cast(p, t_in), acc * rescale)

        @tkw.iterate(N_KV, init_args=[tkl.Register[H, N_Q, f32](-1e6), tkl.Register[H, N_Q, f32](0.0),
                                      tkl.Register[H, D_KV, N_Q, f32](0.0)])
        def prefix_loop(m_old: tkl.Register[H, N_Q, f32], d_old: tkl.Register[H, N_Q, f32],
                        acc: tkl.Register[H, D_KV, N_Q, f32]):
            rows_v = tkw.read(kv_indices, elements_per_thread=pv_ept, source=(n_kv + KV_START_IDX,), target=(n_kv,))
            rows_k = tkw.read(kv_indices, elements_per_thread=1, source=(n_kv + KV_START_IDX,), target=(n_kv,))
            kr = tkw.read(k_cache, elements_per_thread=qk_ept, source=(rows_k, h_kv // ratio, d_q),
                          target=(h_kv, n_kv, d_q))

            def vr():
                return tkw.read(v_cache, elements_per_thread=pv_ept, source=(rows_v, h_kv // ratio, d_kv),
                                target=(h_kv, d_kv, n_kv))
            return step(m_old, d_old, acc, kr, vr, 0, False)

        m1, d1, acc1 = prefix_loop
        new_len = ext_len
        if is_causal and max_rpe is None:
            new_len = tkw.apply_expr(ext_len, lambda x: sympy.Min(x, (WORKGROUP_0 + 1) * BLOCK_N_Q))
        tkw.set_symbol(N_KV, new_len)
        if use_custom_mask:
            tkw.set_symbol(PREFIX_LEN, prefix_len)

        def t5_bias():
            """T5's bias rpe[d] for d = n_q - n_kv in [0, max_rpe), else rpe[max_rpe], times log2 e."""
            dist = tkw.IndexMapping.dynamic_val(0) - tkw.IndexMapping.dynamic_val(1)
            at = sympy.Piecewise((dist, (dist < max_rpe) & (dist >= 0)), (max_rpe, True))
            i3 = [tkw.IndexMapping.iterator(x) for x in range(3)]
            gather = tkw.IndexMapping(num_iterators=3, inputs={N_KV: at},
                                      outputs={H: i3[0], N_Q: i3[1], N_KV: i3[2]},
                                      dynamic_val_mappings=({H: i3[0], N_Q: i3[1], N_KV: i3[2]}, {N_KV: i3[2]}))
            rows = tkw.broadcast(tkw.self_index(N_Q, tkl.i64, elements_per_thread=1), target_shape=[H, N_Q, N_KV])
            cols = tkw.self_index(N_KV, tkl.i64, elements_per_thread=st_ept)
            val = tkw.read(rpe, mapping=gather, mapping_dynamic_vals=(rows, cols), elements_per_thread=st_ept)
            return val * tkl.Register[H, N_Q, N_KV, f32](1.44269504089)
        rpe_bias = t5_bias if max_rpe is not None else None

        @tkw.iterate(N_KV, init_args=[m1, d1, acc1])
        def extend_loop(m_old: tkl.Register[H, N_Q, f32], d_old: tkl.Register[H, N_Q, f32],
                        acc: tkl.Register[H, D_KV, N_Q, f32]):
            kr = tkw.read(k, elements_per_thread=qk_ept, source=(n_kv + EXT_IDX, h_kv // ratio, d_q),
                          target=(h_kv, n_kv, d_q))

            def vr():
                return tkw.read(v, elements_per_thread=pv_ept, source=(n_kv + EXT_IDX, h_kv // ratio, d_kv),
                                target=(h_kv, d_kv, n_kv))
            return step(m_old, d_old, acc, kr, vr, PREFIX_LEN, is_causal, rpe_bias)

        _, total, acc = extend_loop
        res = acc * tkw.reciprocal(total)
        if t_out != f32:
            res = tkw.cast(res, t_out)
        tkw.write(res, c, source=(h, d_kv, n_q), target=(n_q + EXT_IDX, h, d_kv), elements_per_thread=st_ept)

    if max_rpe is not None:
        @tkw.wave(constraints)
        def extend_attention_rpe(
                q: tkl.Memory[N_Q, H, D_Q, GLOBAL_ADDRESS_SPACE, t_in, lay(shape=_first_dim_open(q_shape))],
                k: tkl.Memory[N_KV, H_KV, D_Q, AS, t_in, lay(shape=_first_dim_open(k_shape))],
                v: tkl.Memory[N_KV, H_KV, D_KV, AS, t_in, lay(shape=_first_dim_open(v_shape))],
                k_cache: tkl.Memory[N_KV, H_KV, D_Q, AS, t_in, lay(shape=k_cache_shape)],
                v_cache: tkl.Memory[N_KV, H_KV, D_KV, AS, t_in, lay(shape=v_cache_shape)],
                qo_indptr: tkl.Memory[S, GLOBAL_ADDRESS_SPACE, tkl.i32, seqs_layout],
                kv_indptr: tkl.Memory[S, GLOBAL_ADDRESS_SPACE, tkl.i32, seqs_layout],
                kv_indices: tkl.Memory[N_KV, GLOBAL_ADDRESS_SPACE, tkl.i32, open_layout],
                rpe: tkl.Memory[N_KV, GLOBAL_ADDRESS_SPACE, tkl.f32, lay(shape=[max_rpe + 1])],
                MAX_EXTEND_SEQ_LEN: tkl.SymbolBind[tkl.i32],
                c: tkl.Memory[N_Q, H, D_KV, GLOBAL_ADDRESS_SPACE, t_out, lay(shape=_first_dim_open(o_shape))]):
            core(q, k, v, k_cache, v_cache, qo_indptr, kv_indptr, kv_indices, None, None, c, rpe)
        kernel = extend_attention_rpe
    elif use_custom_mask:
        @tkw.wave(constraints)
        def extend_attention_custom_mask(
                q: tkl.Memory[N_Q, H, D_Q, GLOBAL_ADDRESS_SPACE, t_in, lay(shape=_first_dim_open(q_shape))],
                k: tkl.Memory[N_KV, H_KV, D_Q, AS, t_in, lay(shape=_first_dim_open(k_shape))],
                v: tkl.Memory[N_KV, H_KV, D_KV, AS, t_in, lay(shape=_first_dim_open(v_shape))],
                k_cache: tkl.Memory[N_KV, H_KV, D_Q, AS, t_in, lay(shape=_first_dim_open(k_cache_shape))],
                v_cache: tkl.Memory[N_KV, H_KV, D_KV, AS, t_in, lay(shape=_first_dim_open(v_cache_shape))],
                qo_indptr: tkl.Memory[S, GLOBAL_ADDRESS_SPACE, tkl.i32, seqs_layout],
                kv_indptr: tkl.Memory[S, GLOBAL_ADDRESS_SPACE, tkl.i32, seqs_layout],
                kv_indices: tkl.Memory[N_KV, GLOBAL_ADDRESS_SPACE, tkl.i32, open_layout],
                custom_mask: tkl.Memory[MASK_LEN, GLOBAL_ADDRESS_SPACE, tkl.i8, seqs_layout],
                mask_offsets: tkl.Memory[S, GLOBAL_ADDRESS_SPACE, tkl.i32, seqs_layout],
                MAX_EXTEND_SEQ_LEN: tkl.SymbolBind[tkl.i32],
                c: tkl.Memory[N_Q, H, D_KV, GLOBAL_ADDRESS_SPACE, t_out, lay(shape=_first_dim_open(o_shape))]):
            core(q, k, v, k_cache, v_cache, qo_indptr, kv_indptr, kv_indices, custom_mask, mask_offsets, c)
        kernel = extend_attention_custom_mask
    else:
        @tkw.wave(constraints)
        def extend_attention(
                q: tkl.Memory[N_Q, H, D_Q, GLOBAL_ADDRESS_SPACE, t_in, lay(shape=_first_dim_open(q_shape))],
                k: tkl.Memory[N_KV, H_KV, D_Q, AS, t_in, lay(shape=_first_dim_open(k_shape))],
                v: tkl.Memory[N_KV, H_KV, D_KV, AS, t_in, lay(shape=_first_dim_open(v_shape))],
                k_cache: tkl.Memory[N_KV, H_KV, D_Q, AS, t_in, lay(shape=_first_dim_open(k_cache_shape))],
                v_cache: tkl.Memory[N_KV, H_KV, D_KV, AS, t_in, lay(shape=_first_dim_open(v_cache_shape))],
                qo_indptr: tkl.Memory[S, GLOBAL_ADDRESS_SPACE, tkl.i32, seqs_layout],
                kv_indptr: tkl.Memory[S, GLOBAL_ADDRESS_SPACE, tkl.i32, seqs_layout],
                kv_indices: tkl.Memory[N_KV, GLOBAL_ADDRESS_SPACE, tkl.i32, open_layout],
                MAX_EXTEND_SEQ_LEN: tkl.SymbolBind[tkl.i32],
                c: tkl.Memory[N_Q, H, D_KV, GLOBAL_ADDRESS_SPACE, t_out, lay(shape=_first_dim_open(o_shape))]):
            core(q, k, v, k_cache, v_cache, qo_indptr, kv_indptr, kv_indices, None, None, c)
        kernel = extend_attention

    hp = {AS: SHARED_ADDRESS_SPACE, qk_ept: get_mfma_load_elems_per_thread(mfma_variant[0]),
          pv_ept: get_mfma_load_elems_per_thread(mfma_variant[1]),
          st_ept: get_mfma_store_elems_per_thread(mfma_variant[1]), BLOCK_H: 1, BLOCK_N_Q: tile,
          BLOCK_D_KV: shape.head_size_kv if max_rpe is None else tile, BLOCK_N_KV: tile // kv_div, BLOCK_S: 1,
          H: shape.num_query_heads,
          H_KV: shape.num_kv_heads, D_KV: shape.head_size_kv, D_Q: shape.head_size}
    dyn = [N_Q, N_KV, S] + ([MASK_LEN] if use_custom_mask else [])
    return kernel, hp, dyn
