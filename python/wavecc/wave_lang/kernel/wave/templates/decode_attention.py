"""Wave's wave_lang.kernel.wave.templates.decode_attention, written for wavecc's tracer.

Flash decoding in two kernels. Phase 0 splits the kv sequence K2 into U slices of BLOCK_K2 / 2 (a symbolic alias
U of K2): each slice computes softmax(q k^T) v over its keys (q already scaled by the caller) and writes its
partial result [U, B, N, M] and its log-sum-exp max + log2(sum) [U, B, M]. Phase 1 loops over the U slices and
merges them with an online softmax: m = max(m, lse_u), d = d exp2(m_old - m) + exp2(lse_u - m), acc likewise;
out[B, M, N] = acc / d. Returns (phase_0, phase_1, symbols_0, symbols_1, dynamic_symbols_0, dynamic_symbols_1,
U's value).
"""
import math

import sympy

from ... import lang as tkl
from ... import wave as tkw
from ...lang.global_symbols import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE
from ..constraints import MMAType  # noqa: F401  (Wave's module imports it)
from ..symbolic_constraints import SymbolicAlias
from ..utils.mma_utils import get_mfma_load_elems_per_thread, get_mfma_store_elems_per_thread

_WAVES = 2        # waves along M, N and K2 in phase 0
_TPW = 64
_P1_BLOCK_M = 128


def get_decode_attention_kernels(shape, mfma_variant, use_dynamic_dims=False):
    S = tkl.sym
    B, M, N, K1, K2, U = S.B, S.M, S.N, S.K1, S.K2, S.U
    BLOCK_B, BLOCK_M, BLOCK_N, BLOCK_K2, BLOCK_U = S.BLOCK_B, S.BLOCK_M, S.BLOCK_N, S.BLOCK_K2, S.BLOCK_U
    AS, LOAD_EPT, STORE_EPT = S.ADDRESS_SPACE, S.LOAD_ELEMS_PER_THREAD, S.STORE_ELEMS_PER_THREAD
    f32 = tkl.f32

    phase0_constraints = [
        tkw.WorkgroupConstraint(M, BLOCK_M, 0), tkw.WaveConstraint(M, BLOCK_M / _WAVES),
        tkw.WorkgroupConstraint(N, BLOCK_N, 1), tkw.WaveConstraint(N, BLOCK_N / _WAVES),
        tkw.WorkgroupConstraint(K2, BLOCK_K2, 2), tkw.WaveConstraint(K2, BLOCK_K2 / _WAVES),
        tkw.WorkgroupConstraint(B, BLOCK_B, 3),
        SymbolicAlias(U, K2, lambda x: sympy.ceiling(x / (BLOCK_K2 / _WAVES))),
        tkw.HardwareConstraint(threads_per_wave=_TPW, mma_type=mfma_variant, vector_shapes={B: 0}),
    ]
    phase1_constraints = [
        tkw.WorkgroupConstraint(M, BLOCK_M, 0), tkw.WaveConstraint(M, BLOCK_M),
        tkw.WorkgroupConstraint(N, BLOCK_N, 1), tkw.WaveConstraint(N, BLOCK_N),
        tkw.WorkgroupConstraint(B, BLOCK_B, 2),
        tkw.TilingConstraint(U, BLOCK_U),
        tkw.HardwareConstraint(threads_per_wave=_TPW, mma_type=mfma_variant,
                               vector_shapes={B: 0, M: BLOCK_M, N: BLOCK_N, U: 1}),
    ]

    @tkw.wave(phase0_constraints)
    def phase_0(q: tkl.Memory[B, M, K1, GLOBAL_ADDRESS_SPACE, tkl.f16], k: tkl.Memory[B, K2, K1, AS, tkl.f16],
                v: tkl.Memory[B, N, K2, AS, tkl.f16], output: tkl.Memory[U, B, N, M, GLOBAL_ADDRESS_SPACE, f32],
                output_max: tkl.Memory[U, B, M, GLOBAL_ADDRESS_SPACE, f32]):
        start_max = tkl.Register[B, M, f32](-1e6)
        scores = tkw.mma(tkw.read(k, elements_per_thread=LOAD_EPT), tkw.read(q, elements_per_thread=LOAD_EPT),
                         tkl.Register[B, K2, M, f32](0.0))
        s = tkw.permute(scores, target_shape=[B, M, K2])
        m = tkw.max(s, start_max, dim=K2)
        p = tkw.exp2(s - m)
        d = tkw.sum(p, tkl.Register[B, M, f32](0.0) * tkw.exp2(start_max - m), dim=K2)
        pv = tkw.mma(tkw.read(v, elements_per_thread=LOAD_EPT), tkw.cast(p, tkl.f16),
                     tkl.Register[B, N, M, f32](0.0))
        tkw.write(m + tkw.log2(d), output_max, elements_per_thread=1)
        tkw.write(pv / d, output, elements_per_thread=STORE_EPT)

    i, j, kk = (tkw.IndexMapping.iterator(x) for x in range(3))
    out_map = tkw.IndexMapping(num_iterators=3, inputs={B: i, N: j, M: kk}, outputs={B: i, N: j, M: kk})
    p1_ept = _P1_BLOCK_M // _TPW

    @tkw.wave(phase1_constraints)
    def phase_1(logits: tkl.Memory[U, B, N, M, GLOBAL_ADDRESS_SPACE, f32],
                logits_max: tkl.Memory[U, B, M, GLOBAL_ADDRESS_SPACE, f32],
                output: tkl.Memory[B, M, N, GLOBAL_ADDRESS_SPACE, f32]):
        @tkw.iterate(U, init_args=[tkl.Register[B, M, f32](-1e6), tkl.Register[B, M, f32](0.0),
                                   tkl.Register[B, N, M, f32](0.0)])
        def merge(m_old: tkl.Register[B, M, f32], d_old: tkl.Register[B, M, f32], acc: tkl.Register[B, N, M, f32]):
            part = tkw.read(logits, elements_per_thread=p1_ept)
            lse = tkw.read(logits_max, elements_per_thread=p1_ept)
            m_new = tkw.maximum(lse, m_old)
            keep, take = tkw.exp2(m_old - m_new), tkw.exp2(lse - m_new)
            return m_new, d_old * keep + take, acc * keep + take * part

        _, total, acc = merge
        tkw.write(acc / total, output, mapping=out_map, elements_per_thread=p1_ept)

    symbols_0 = {AS: SHARED_ADDRESS_SPACE, LOAD_EPT: get_mfma_load_elems_per_thread(mfma_variant),
                 STORE_EPT: get_mfma_store_elems_per_thread(mfma_variant), BLOCK_B: 1, BLOCK_M: 64, BLOCK_N: 64,
                 BLOCK_K2: 64, BLOCK_U: 1, B: shape[0], M: shape[1], N: shape[2], K1: shape[3], K2: shape[4]}
    u = math.ceil(symbols_0[K2] / (symbols_0[BLOCK_K2] / _WAVES))
    symbols_0[U] = u
    symbols_1 = dict(symbols_0)
    symbols_1.update({BLOCK_M: _P1_BLOCK_M, BLOCK_N: 1})
    dyn0, dyn1 = [], []
    if use_dynamic_dims:
        dyn0 = [B, M, N, K2, U]
        for x in dyn0:
            symbols_0.pop(x, None)
            symbols_1.pop(x, None)
        dyn1 = [x for x in dyn0 if x != K2]
    return phase_0, phase_1, symbols_0, symbols_1, dyn0, dyn1, u
