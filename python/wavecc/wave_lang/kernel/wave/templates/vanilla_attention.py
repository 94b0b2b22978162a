"""Wave's wave_lang.kernel.wave.templates.vanilla_attention, written for wavecc's tracer.

Flash attention over the kv sequence K2 (a loop of BLOCK_K2 tiles) with an online softmax in base 2:
per tile, S = K Q^T (the first MMA type), masked (columns past K2; causal: k2 > m; sliding window), the running
max m and sum d updated, P = exp2(S - m) cast to f16 and acc = acc * exp2(m_old - m) + V P (the second MMA type);
after the loop out = acc / d. The three entry points differ in layout and in where the 1/sqrt(head) * log2(e)
scale is applied:

- get_vanilla_attention_kernel: q[B, M, K1], k[B, K2, K1], v[B, K2, N] (or [B, N, K2] with is_v_transposed),
  out[B, M, N]; the scale multiplies the scores. Returns (kernel, hyperparams, dynamic_symbols).
- get_bshd_attention_kernel: q[B, M, H, K1], k[B, K2, H, K1], v[B, K2, H, N], out[B, M, H, N]; the scale
  multiplies q (in f16); is_custom_mask adds an i8 mask[B, M] argument (nonzero masks a query row; a row with
  every column masked gives 0).
- get_bhsd_attention_kernel: q[B, H, M, K1], k[B, H, K2, K1], v[B, H, K2, N], out[B, H, M, N].
"""
import math

import sympy

from ... import lang as tkl
from ... import wave as tkw
from ...lang.global_symbols import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE
from ..constraints import MMAType
from .attention_common import AttentionShape  # noqa: F401  (Wave's module imports it)

_LOG2E = math.log2(math.e)


def _vector_shape(mma):
    """(M vector, N vector, threads per wave) for the second MMA type, as Wave's templates choose them."""
    if mma == MMAType.F32_32x32x8_F16:
        return 32, 32, 64
    if mma == MMAType.RDNA4_WAVE32_F32_16x16x16_F16:
        return 16, 16, 32
    return 16, 16, 64


class _Attn:
    """The symbols and the shared pieces of one attention kernel."""

    def __init__(self, outer):
        S = tkl.sym
        self.B, self.H, self.M, self.N, self.K1, self.K2 = S.B, S.H, S.M, S.N, S.K1, S.K2
        self.outer = [getattr(S, d) for d in outer]  # the batch-like dims: [B] or [B, H]
        self.AS = S.ADDRESS_SPACE

    def constraints(self, mma, m_wave_tile, dynamic):
        S = tkl.sym
        M, N, K2 = self.M, self.N, self.K2
        c = [tkw.WorkgroupConstraint(M, S.BLOCK_M, 0), tkw.WorkgroupConstraint(N, S.BLOCK_N, 1)]
        for i, d in enumerate(self.outer):
            c.append(tkw.WorkgroupConstraint(d, getattr(S, "BLOCK_" + d.name), 2 + i))
        c += [tkw.TilingConstraint(K2, S.BLOCK_K2), tkw.WaveConstraint(M, m_wave_tile),
              tkw.WaveConstraint(N, S.BLOCK_N / 1)]
        mv, nv, tpw = _vector_shape(mma)
        vs = {d: 0 for d in self.outer}
        vs.update({M: mv, N: nv})
        c.append(tkw.HardwareConstraint(threads_per_wave=tpw, mma_type=mma, vector_shapes=vs))
        if dynamic:
            c.append(tkw.Assumption(K2 > S.BLOCK_K2 * 4))
        return c

    def identity(self, dims):
        """An IndexMapping that reads dims in the given order (a register [outer..., dims...])."""
        its = [tkw.IndexMapping.iterator(i) for i in range(len(dims))]
        m = dict(zip(dims, its))
        return tkw.IndexMapping(num_iterators=len(dims), inputs=m, outputs=m)

    def out_mapping(self, mem_order):
        """The write of the [outer..., N, M] result into memory laid out as mem_order."""
        reg = self.outer + [self.N, self.M]
        its = dict(zip(reg, [tkw.IndexMapping.iterator(i) for i in range(len(reg))]))
        return tkw.IndexMapping(num_iterators=len(reg), inputs={d: its[d] for d in reg},
                                outputs={d: its[d] for d in mem_order})

    def flash(self, q, k, v, out, mmas, *, q_map=None, k_map=None, v_map=None, out_map=None, q_scale=None,
              s_scale=None, index_dtype=tkl.i64, mask_dims=None, causal=False, window=-1, custom_mask=None,
              init_max=-1e6):
        """The loop over K2 and the normalised write; see the module's comment."""
        o, M, N, K2, K1 = self.outer, self.M, self.N, self.K2, self.K1
        f32 = tkl.f32
        mask_dims = mask_dims or [M, K2]
        r_max, r_sum = tkl.Register[(*o, M, f32)](init_max), tkl.Register[(*o, M, f32)](0.0)
        r_acc = tkl.Register[(*o, N, M, f32)](0.0)
        zero, neg = tkl.Register[(*mask_dims, f32)](0.0), tkl.Register[(*mask_dims, f32)](-1e6)
        q_scaling = tkl.Register[(*o, M, K1, tkl.f16)](q_scale) if q_scale is not None else None
        s_scaling = tkl.Register[(*o, M, K2, f32)](s_scale) if s_scale is not None else None
        window_reg = tkl.Register[M, K2, tkl.i64](window) if causal and window > 0 else None

        @tkw.iterate(K2, init_args=[r_max, r_sum, r_acc])
        def kv_loop(m_old: tkl.Register[(*o, M, f32)], d_old: tkl.Register[(*o, M, f32)],
                    acc: tkl.Register[(*o, N, M, f32)]):
            qr = tkw.read(q, mapping=q_map)
            if q_scaling is not None:
                qr = qr * q_scaling
            scores = tkw.mma(tkw.read(k, mapping=k_map), qr, tkl.Register[(*o, K2, M, f32)](0.0), mmas[0])
            s = tkw.permute(scores, target_shape=[*o, M, K2])
            col = tkw.self_index(K2, index_dtype)
            if custom_mask is None:
                keep = tkw.broadcast(tkw.apply_expr(col, lambda x: x < K2), target_shape=mask_dims)
                if causal:
                    row = tkw.broadcast(tkw.self_index(M, index_dtype), target_shape=mask_dims)
                    keep = (row >= col) & keep
                    if window_reg is not None:
                        keep = (row - col <= window_reg) & keep
                s = s + tkw.select(tkw.cast(keep, tkw.i1), zero, neg)
            else:
                drop = tkw.cast(tkw.broadcast(tkw.apply_expr(col, lambda x: x >= K2), target_shape=mask_dims), tkw.i1)
                user = tkw.read(custom_mask)
                drop = drop | tkw.cast(tkw.broadcast(user, target_shape=mask_dims), tkw.i1)
                s = s + tkw.select(drop, neg, zero)
            if s_scaling is not None:
                s = s * s_scaling
            m_new = tkw.max(s, m_old, dim=K2)
            rescale = tkw.exp2(m_old - m_new)
            p = tkw.exp2(s - m_new)
            d_new = tkw.sum(p, d_old * rescale, dim=K2)
            acc = tkw.mma(tkw.read(v, mapping=v_map), tkw.cast(p, tkl.f16), acc * rescale, mmas[1])
            return m_new, d_new, acc

        _, total, acc = kv_loop
        inv = tkw.reciprocal(total)
        if custom_mask is not None:  # every column masked: the sum stayed 0, the row is 0
            inv = tkw.select(tkw.cast(total == r_sum, tkw.i1), r_sum, inv)
        tkw.write(acc * inv, out, mapping=out_map)


def get_vanilla_attention_kernel(shape, mfma_variants, dynamic_dims, is_causal=False, is_v_transposed=False,
                                 sliding_window_size=-1, scale=None):
    if sliding_window_size > 0 and not is_causal:
        raise NotImplementedError("Sliding window is only supported for causal attention.")
    if len(mfma_variants) != 2:
        raise ValueError("mfma_variants must be a tuple of two MMATypes")
    scale = (scale or 1.0 / math.sqrt(shape.head_size)) * _LOG2E
    a = _Attn(["B"])
    B, M, N, K1, K2, AS = a.B, a.M, a.N, a.K1, a.K2, a.AS
    constraints = a.constraints(mfma_variants[1], sympy.ceiling(tkl.sym.BLOCK_M / 4), dynamic_dims)
    v_map = a.identity([B, N, K2])
    out_map = a.out_mapping([B, M, N])

    def body(q, k, v, c):
        a.flash(q, k, v, c, mfma_variants, v_map=None if is_v_transposed else v_map, out_map=out_map,
                s_scale=scale, index_dtype=tkl.i64, mask_dims=[B, M, K2], causal=is_causal,
                window=sliding_window_size)

    if is_v_transposed:
        @tkw.wave(constraints)
        def base_attention_transposed_v(q: tkl.Memory[B, M, K1, GLOBAL_ADDRESS_SPACE, tkl.f16],
                                        k: tkl.Memory[B, K2, K1, AS, tkl.f16],
                                        v: tkl.Memory[B, N, K2, AS, tkl.f16],
                                        c: tkl.Memory[B, M, N, GLOBAL_ADDRESS_SPACE, tkl.f32]):
            body(q, k, v, c)
        kernel = base_attention_transposed_v
    else:
        @tkw.wave(constraints)
        def base_attention(q: tkl.Memory[B, M, K1, GLOBAL_ADDRESS_SPACE, tkl.f16],
                           k: tkl.Memory[B, K2, K1, AS, tkl.f16],
                           v: tkl.Memory[B, K2, N, AS, tkl.f16],
                           c: tkl.Memory[B, M, N, GLOBAL_ADDRESS_SPACE, tkl.f32]):
            body(q, k, v, c)
        kernel = base_attention
    S = tkl.sym
    hp = {AS: SHARED_ADDRESS_SPACE, S.BLOCK_B: 1, S.BLOCK_M: 128, S.BLOCK_N: 64, S.BLOCK_K2: 64,
          B: shape.num_query_heads, M: shape.query_seq_len, N: shape.head_size_kv, K1: shape.head_size,
          K2: shape.kv_seq_len}
    dyn = []
    if dynamic_dims:
        dyn = [M, N, B, K2]
        for d in dyn:
            del hp[d]
    return kernel, hp, dyn


def _bxsd(layout, shape, mfma_variant, dynamic_dims, is_causal, is_custom_mask, num_waves):
    """The [B, H] attention kernels: layout "bshd" (heads third) or "bhsd" (heads second)."""
    a = _Attn(["B", "H"])
    B, H, M, N, K1, K2, AS = a.B, a.H, a.M, a.N, a.K1, a.K2, a.AS
    S = tkl.sym
    constraints = a.constraints(mfma_variant[1], S.BLOCK_M / num_waves, dynamic_dims)
    scale = math.sqrt(1.0 / shape.head_size) * 1.44269504089
    if is_custom_mask or layout == "bshd":  # Wave's custom-mask kernel keeps the bshd layout in both
        qd, kd, vd, cd = [B, M, H, K1], [B, K2, H, K1], [B, K2, H, N], [B, M, H, N]
    else:
        qd, kd, vd, cd = [B, H, M, K1], [B, H, K2, K1], [B, H, K2, N], [B, H, M, N]
    maps = dict(q_map=a.identity([B, H, M, K1]), k_map=a.identity([B, H, K2, K1]), v_map=a.identity([B, H, N, K2]),
                out_map=a.out_mapping(cd))
    if layout == "bhsd" and not is_custom_mask:
        maps["q_map"] = maps["k_map"] = None  # read as they lie

    if is_custom_mask:
        @tkw.wave(constraints)
        def base_attention_custom_mask(q: tkl.Memory[(*qd, GLOBAL_ADDRESS_SPACE, tkl.f16)],
                                       k: tkl.Memory[(*kd, AS, tkl.f16)], v: tkl.Memory[(*vd, AS, tkl.f16)],
                                       custom_mask: tkl.Memory[B, M, GLOBAL_ADDRESS_SPACE, tkl.i8],
                                       c: tkl.Memory[(*cd, GLOBAL_ADDRESS_SPACE, tkl.f32)]):
            a.flash(q, k, v, c, mfma_variant, q_scale=scale, index_dtype=tkl.i32, mask_dims=[B, M, K2],
                    custom_mask=custom_mask, init_max=-1e5, **maps)
        kernel = base_attention_custom_mask
    else:
        @tkw.wave(constraints)
        def base_attention(q: tkl.Memory[(*qd, GLOBAL_ADDRESS_SPACE, tkl.f16)], k: tkl.Memory[(*kd, AS, tkl.f16)],
                           v: tkl.Memory[(*vd, AS, tkl.f16)], c: tkl.Memory[(*cd, GLOBAL_ADDRESS_SPACE, tkl.f32)]):
            a.flash(q, k, v, c, mfma_variant, q_scale=scale, index_dtype=tkl.i32, mask_dims=[M, K2],
                    causal=is_causal, **maps)
        kernel = base_attention
    hp = {AS: SHARED_ADDRESS_SPACE, S.BLOCK_B: 1, S.BLOCK_H: 1, S.BLOCK_N: 64, S.BLOCK_K2: 64,
          H: shape.num_query_heads, M: shape.query_seq_len, N: shape.head_size_kv, K1: shape.head_size,
          K2: shape.kv_seq_len}
    if layout == "bshd":
        hp.update({S.BLOCK_M: 128 * (num_waves // 4), B: 1})
        dyn = [M, N, B, K2] if dynamic_dims else []
    else:
        hp.update({S.BLOCK_M: 128, B: shape.batch_size})
        dyn = [B, H, M, K2] if dynamic_dims else []
    for d in dyn:
        del hp[d]
    return kernel, hp, dyn


def get_bshd_attention_kernel(shape, mfma_variant, dynamic_dims, is_causal=False, is_custom_mask=False, num_waves=4):
    return _bxsd("bshd", shape, mfma_variant, dynamic_dims, is_causal, is_custom_mask, num_waves)


def get_bhsd_attention_kernel(shape, mfma_variant, dynamic_dims, is_causal=False, is_custom_mask=False):
    return _bxsd("bhsd", shape, mfma_variant, dynamic_dims, is_causal, is_custom_mask, 4)
