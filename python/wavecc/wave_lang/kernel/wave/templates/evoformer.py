"""Wave's wave_lang.kernel.wave.templates.evoformer, written for wavecc's tracer.

get_evoformer_kernel: AlphaFold's Evoformer attention: q[B, BN, M, H, K1], k[B, BN, K2, H, K1], v[B, BN, N, H, K2]
(v transposed), scores plus a mask[B, BN, K2] and a bias[B, H, M, K2] (both in the input dtype, added in f32),
an online softmax in base 2 (the caller scales q by 1/sqrt(K1) * log2 e and mask and bias by log2 e), out
[B, BN, M, H, N] in the input dtype. bf16 operands go through f32 to f16 for the MMAs. Each size argument is a
(size, tile) pair. Returns (kernel, symbols).
"""
from ... import lang as tkl
from ... import wave as tkw
from ...lang.global_symbols import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE
from ..constraints import MMAType
from ..utils.mma_utils import get_mfma_load_elems_per_thread, get_mfma_store_elems_per_thread


def get_evoformer_kernel(batch, n, kv_seq_len, heads, head_dim, q_seq_len, v_dim, mfma_variant, datatype):
    if datatype not in (tkl.f16, tkl.bf16):
        raise AssertionError("Unsupported datatype: %s" % datatype)
    S = tkl.sym
    B, BN, M, H, N, K1, K2 = S.B, S.BN, S.M, S.H, S.N, S.K1, S.K2
    AS, LOAD_EPT, STORE_EPT = S.ADDRESS_SPACE, S.LOAD_ELEMS_PER_THREAD, S.STORE_ELEMS_PER_THREAD
    f32 = tkl.f32
    vec = 32 if mfma_variant == MMAType.F32_32x32x8_F16 else 16
    constraints = [
        tkw.WorkgroupConstraint(M, S.BLOCK_M, 0),
        tkw.WorkgroupConstraint(N, S.BLOCK_N, 1),
        tkw.WorkgroupConstraint(B, S.BLOCK_B, 2),
        tkw.WorkgroupConstraint(BN, S.BLOCK_BN, 3),
        tkw.WorkgroupConstraint(H, S.BLOCK_H, 4),
        tkw.TilingConstraint(K2, S.BLOCK_K2),
        tkw.WaveConstraint(M, S.BLOCK_M / 2),
        tkw.WaveConstraint(N, S.BLOCK_N / 1),
        tkw.HardwareConstraint(threads_per_wave=64, mma_type=mfma_variant,
                               vector_shapes={B: 0, BN: 0, H: 0, M: vec, N: vec}),
    ]

    def ident(*dims):
        its = [tkw.IndexMapping.iterator(x) for x in range(len(dims))]
        m = dict(zip(dims, its))
        return tkw.IndexMapping(num_iterators=len(dims), inputs=m, outputs=m)

    q_map, k_map, v_map = ident(B, BN, H, M, K1), ident(B, BN, H, K2, K1), ident(B, BN, H, N, K2)
    o_map = ident(B, BN, H, N, M)

    def as_f16(r):
        return tkw.cast(tkw.cast(r, f32), tkl.f16) if datatype == tkl.bf16 else r

    @tkw.wave(constraints)
    def evoformer_fwd(q: tkl.Memory[B, BN, M, H, K1, GLOBAL_ADDRESS_SPACE, datatype],
                      k: tkl.Memory[B, BN, K2, H, K1, AS, datatype], v: tkl.Memory[B, BN, N, H, K2, AS, datatype],
                      mask: tkl.Memory[B, BN, K2, GLOBAL_ADDRESS_SPACE, datatype],
                      bias: tkl.Memory[B, H, M, K2, GLOBAL_ADDRESS_SPACE, datatype],
                      c: tkl.Memory[B, BN, M, H, N, GLOBAL_ADDRESS_SPACE, datatype]):
        @tkw.iterate(K2, init_args=[tkl.Register[B, BN, H, M, f32](-1e6), tkl.Register[B, BN, H, M, f32](0.0),
                                    tkl.Register[B, BN, H, N, M, f32](0.0)])
        def kv_loop(m_old: tkl.Register[B, BN, H, M, f32], d_old: tkl.Register[B, BN, H, M, f32],
                    acc: tkl.Register[B, BN, H, N, M, f32]):
            qr = as_f16(tkw.read(q, mapping=q_map, elements_per_thread=LOAD_EPT))
            kr = as_f16(tkw.read(k, mapping=k_map, elements_per_thread=LOAD_EPT))
            s = tkw.permute(tkw.mma(kr, qr, tkl.Register[B, BN, H, K2, M, f32](0.0)),
                            target_shape=[B, BN, H, M, K2])
            s = s + tkw.cast(tkw.read(mask, elements_per_thread=STORE_EPT), f32)
            s = s + tkw.cast(tkw.read(bias, elements_per_thread=STORE_EPT), f32)
            m_new = tkw.max(s, m_old, dim=K2)
            rescale = tkw.exp2(m_old - m_new)
            p = tkw.exp2(s - m_new)
            d_new = tkw.sum(p, d_old * rescale, dim=K2)
            vr = as_f16(tkw.read(v, mapping=v_map, elements_per_thread=LOAD_EPT))
            return m_new, d_new, tkw.mma(vr, tkw.cast(p, tkl.f16), acc * rescale)

        _, total, acc = kv_loop
        tkw.write(tkw.cast(acc * tkw.reciprocal(total), datatype), c, mapping=o_map, elements_per_thread=STORE_EPT)

    symbols = {AS: SHARED_ADDRESS_SPACE, LOAD_EPT: get_mfma_load_elems_per_thread(mfma_variant),
               STORE_EPT: get_mfma_store_elems_per_thread(mfma_variant)}
    for sym_, blk, pair in ((B, S.BLOCK_B, batch), (BN, S.BLOCK_BN, n), (K2, S.BLOCK_K2, kv_seq_len),
                            (H, S.BLOCK_H, heads), (K1, None, head_dim), (M, S.BLOCK_M, q_seq_len),
                            (N, S.BLOCK_N, v_dim)):
        symbols[sym_] = pair[0]
        if blk is not None:
            symbols[blk] = pair[1]
    return evoformer_fwd, symbols
