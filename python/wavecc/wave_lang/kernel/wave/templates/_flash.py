"""templates/_flash.py — the [B, M, K1] x [B, K2, K1] flash-attention kernel shared by the ALiBi and T5 RPE
templates: v is [B, N, K2] (transposed), q arrives scaled by 1/sqrt(K1) * log2 e, the scores get an additive
bias (bias_fn(scores) gives it inside the loop over K2) and are folded in with an online softmax in base 2; the
[B, N, M] result is written into c[B, M, N]. Returns the kernel and the hyperparameters Wave's templates give.
"""
from ... import lang as tkl
from ... import wave as tkw
from ...lang.global_symbols import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE
from ..constraints import MMAType
from ..utils.mma_utils import get_mfma_load_elems_per_thread, get_mfma_store_elems_per_thread


def syms():
    S = tkl.sym
    return S.B, S.M, S.N, S.K1, S.K2


def constraints(mfma_variant, dynamic_dims):
    B, M, N, K1, K2 = syms()
    S = tkl.sym
    vec = 32 if mfma_variant[1] == MMAType.F32_32x32x8_F16 else 16
    c = [tkw.WorkgroupConstraint(M, S.BLOCK_M, 0), tkw.WorkgroupConstraint(N, S.BLOCK_N, 1),
         tkw.WorkgroupConstraint(B, S.BLOCK_B, 2), tkw.TilingConstraint(K2, S.BLOCK_K2),
         tkw.WaveConstraint(M, S.BLOCK_M / 4), tkw.WaveConstraint(N, S.BLOCK_N / 1),
         tkw.HardwareConstraint(threads_per_wave=64, mma_type=mfma_variant[1], vector_shapes={B: 0, M: vec, N: vec})]
    if dynamic_dims:
        c.append(tkw.Assumption(K2 > S.BLOCK_K2 * 4))
    return c


def body(q, k, v, c, mfma_variant, bias_fn):
    B, M, N, K1, K2 = syms()
    S = tkl.sym
    f32 = tkl.f32
    qk_ept, pv_ept = tkl.sym.LOAD_ELEMS_PER_THREAD_QK, tkl.sym.LOAD_ELEMS_PER_THREAD_PV
    i, j, kk = (tkw.IndexMapping.iterator(x) for x in range(3))
    out_map = tkw.IndexMapping(num_iterators=3, inputs={B: i, N: j, M: kk}, outputs={B: i, M: kk, N: j})

    @tkw.iterate(K2, init_args=[tkl.Register[B, M, f32](-1e6), tkl.Register[B, M, f32](0.0),
                                tkl.Register[B, N, M, f32](0.0)])
    def kv_loop(m_old: tkl.Register[B, M, f32], d_old: tkl.Register[B, M, f32], acc: tkl.Register[B, N, M, f32]):
        scores = tkw.mma(tkw.read(k, elements_per_thread=qk_ept), tkw.read(q, elements_per_thread=qk_ept),
                         tkl.Register[B, K2, M, f32](0.0), mfma_variant[0])
        s = tkw.permute(scores, target_shape=[B, M, K2])
        s = s + bias_fn()
        m_new = tkw.max(s, m_old, dim=K2)
        rescale = tkw.exp2(m_old - m_new)
        p = tkw.exp2(s - m_new)
        d_new = tkw.sum(p, d_old * rescale, dim=K2)
        acc = tkw.mma(tkw.read(v, elements_per_thread=pv_ept), tkw.cast(p, tkl.f16), acc * rescale)
        return m_new, d_new, acc

    _, total, acc = kv_loop
    tkw.write(acc * tkw.reciprocal(total), c, mapping=out_map, elements_per_thread=S.STORE_ELEMS_PER_THREAD)


def hyperparams(shape, mfma_variant, dynamic_dims):
    B, M, N, K1, K2 = syms()
    S = tkl.sym
    hp = {S.ADDRESS_SPACE: SHARED_ADDRESS_SPACE,
          S.LOAD_ELEMS_PER_THREAD_QK: get_mfma_load_elems_per_thread(mfma_variant[0]),
          S.LOAD_ELEMS_PER_THREAD_PV: get_mfma_load_elems_per_thread(mfma_variant[1]),
          S.STORE_ELEMS_PER_THREAD: get_mfma_store_elems_per_thread(mfma_variant[1]),
          S.BLOCK_B: 1, S.BLOCK_M: 128, S.BLOCK_N: 64, S.BLOCK_K2: 64,
          B: shape.num_query_heads, M: shape.query_seq_len, N: shape.head_size_kv, K1: shape.head_size,
          K2: shape.kv_seq_len}
    dyn = []
    if dynamic_dims:
        dyn = [M, N, B, K2]
        for d in dyn:
            del hp[d]
    return hp, dyn


GLOBAL = GLOBAL_ADDRESS_SPACE
