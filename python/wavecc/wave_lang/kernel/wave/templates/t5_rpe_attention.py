"""Wave's wave_lang.kernel.wave.templates.t5_rpe_attention, written for wavecc's tracer.

get_t5_rpe_attention_kernel: attention with T5's relative position bias: score(m, k2) += rpe[d] with
d = m - k2 when 0 <= d < max_rpe_context_length, else rpe[max_rpe_context_length] (a gather through a mapping of
two dynamic values, the self indices of M and K2). q arrives scaled by 1/sqrt(K1) * log2 e. Wave declares rpe as
Memory[K2] with a MemoryLayout of max_rpe_context_length + 1 elements; wavecc-kernel/1 has no layouts, so here rpe
is Memory[RPE] with RPE = max_rpe_context_length + 1 (MAX_RPE = max_rpe_context_length) in the hyperparameters.
Returns (kernel, hyperparams, dynamic_symbols).
"""
import sympy

from ... import lang as tkl
from ... import wave as tkw
from ..constraints import MMAType  # noqa: F401  (Wave's module imports it)
from .attention_common import AttentionShape  # noqa: F401
from . import _flash


def get_t5_rpe_attention_kernel(shape, mfma_variant, dynamic_dims, max_rpe_context_length):
    B, M, N, K1, K2 = _flash.syms()
    RPE, MAX_RPE = tkl.sym.RPE, tkl.sym.MAX_RPE
    AS, G = tkl.sym.ADDRESS_SPACE, _flash.GLOBAL
    i, j, k = (tkw.IndexMapping.iterator(x) for x in range(3))
    d0, d1 = tkw.IndexMapping.dynamic_val(0), tkw.IndexMapping.dynamic_val(1)
    dist = d0 - d1
    at = sympy.Piecewise((dist, (dist < MAX_RPE) & (dist >= 0)), (MAX_RPE, True))
    gather = tkw.IndexMapping(num_iterators=3, inputs={RPE: at}, outputs={B: i, M: j, K2: k},
                              dynamic_val_mappings=({M: j}, {K2: k}))

    @tkw.wave(_flash.constraints(mfma_variant, dynamic_dims))
    def base_attention(q: tkl.Memory[B, M, K1, G, tkl.f16], k: tkl.Memory[B, K2, K1, AS, tkl.f16],
                       v: tkl.Memory[B, N, K2, AS, tkl.f16], rpe: tkl.Memory[RPE, G, tkl.f32],
                       c: tkl.Memory[B, M, N, G, tkl.f32]):
        def bias():
            return tkw.read(rpe, mapping=gather,
                            mapping_dynamic_vals=(tkw.self_index(M, tkl.i64), tkw.self_index(K2, tkl.i64)),
                            elements_per_thread=tkl.sym.STORE_ELEMS_PER_THREAD)

        _flash.body(q, k, v, c, mfma_variant, bias)

    hp, dyn = _flash.hyperparams(shape, mfma_variant, dynamic_dims)
    hp.update({MAX_RPE: max_rpe_context_length, RPE: max_rpe_context_length + 1})
    return base_attention, hp, dyn
