"""Wave's wave_lang.kernel.wave.templates.alibi_attention, written for wavecc's tracer.

get_alibi_attention_kernel: attention with linear biases: score(m, k2) += slope[b] * min(k2 - m, 0), one slope
per head (m[B], f32). The caller scales q by 1/sqrt(K1) * log2 e and the slopes by log2 e (the kernel's softmax
is in base 2). q[B, M, K1], k[B, K2, K1], v[B, N, K2], out[B, M, N]. Returns (kernel, hyperparams,
dynamic_symbols).
"""
from ... import lang as tkl
from ... import wave as tkw
from ..constraints import MMAType  # noqa: F401  (Wave's module imports it)
from .attention_common import AttentionShape  # noqa: F401
from . import _flash


def get_alibi_attention_kernel(shape, mfma_variant, dynamic_dims):
    B, M, N, K1, K2 = _flash.syms()
    AS, G = tkl.sym.ADDRESS_SPACE, _flash.GLOBAL

    @tkw.wave(_flash.constraints(mfma_variant, dynamic_dims))
    def alibi_attention(q: tkl.Memory[B, M, K1, G, tkl.f16], k: tkl.Memory[B, K2, K1, G, tkl.f16],
                        v: tkl.Memory[B, N, K2, AS, tkl.f16], m: tkl.Memory[B, G, tkl.f32],
                        c: tkl.Memory[B, M, N, G, tkl.f32]):
        slope = tkw.read(m, elements_per_thread=1)

        def bias():
            row = tkw.broadcast(tkw.self_index(M, tkl.i64, elements_per_thread=1), target_shape=[B, M, K2])
            col = tkw.self_index(K2, tkl.i64, elements_per_thread=4)
            dist = tkw.minimum(col - row, tkl.Register[B, M, K2, tkl.i64](0))
            return tkw.broadcast(slope, target_shape=[B, M, K2]) * tkw.cast(dist, tkl.f32)

        _flash.body(q, k, v, c, mfma_variant, bias)

    hp, dyn = _flash.hyperparams(shape, mfma_variant, dynamic_dims)
    return alibi_attention, hp, dyn
