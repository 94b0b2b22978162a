"""Wave's wave_lang.kernel.wave.templates.extend_attention_rpe, written for wavecc's tracer.

get_extend_attention_rpe_kernel: extend_attention's kernel (no soft cap, no custom mask) whose second loop, over
the new tokens, adds T5's relative position bias to the scaled scores: rpe[n_q - n_kv] when that is in
[0, max_rpe_context_length), else rpe[max_rpe_context_length], times log2 e; causal masks k > q without bounding
the loop; D_KV in tiles of block_size. rpe has max_rpe_context_length + 1 entries (Wave's MemoryLayout of the
N_KV-indexed memory; a call pads it to the launch N_KV). Returns (kernel, hyperparams, dynamic_symbols).
"""
from ._common import F16
from .extend_attention import _extend


def get_extend_attention_rpe_kernel(shape, mfma_variant, q_shape, k_shape, v_shape, k_cache_shape, v_cache_shape,
                                    o_shape, input_dtype=F16, output_dtype="float32", size_dtype="int32",
                                    is_causal=False, layer_scaling=None, num_waves=4, max_rpe_context_length=0):
    return _extend(shape, mfma_variant, (q_shape, k_shape, v_shape, k_cache_shape, v_cache_shape, o_shape),
                   input_dtype, output_dtype, size_dtype, is_causal, 0.0, layer_scaling, num_waves, False,
                   max_rpe_context_length)
