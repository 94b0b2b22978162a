"""Wave's tests/kernel/e2e/test_advanced_ops.py test_fused_softmax (a softmax written as in Wave's
reduction examples), with only the imports changed (wave_lang -> wavecc.wave_lang) and torch
tensors on a GPU replaced by numpy arrays."""
import numpy as np

import wavecc.wave_lang.kernel.lang as tkl
import wavecc.wave_lang.kernel.wave as tkw
from wavecc.wave_lang.kernel.lang.global_symbols import *
from wavecc.wave_lang.kernel.wave.compile import WaveCompileOptions, wave_compile
from wavecc.wave_lang.kernel.wave.utils.run_utils import set_default_run_config


def test_fused_softmax(shape, use_buffer_ops=False, threads_per_wave=64):
    M = tkl.sym.M
    N = tkl.sym.N
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE

    BLOCK_M = 1

    constraints: list[tkw.Constraint] = [
        tkw.HardwareConstraint(
            threads_per_wave=threads_per_wave,
            vector_shapes={M: BLOCK_M, N: N},
        )
    ]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M, 1)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M)]

    @tkw.wave(constraints)
    def test(
        a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32],
        b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32],
    ):
        val = tkw.read(a)
        row_max = tkw.max(val, dim=N)
        row_max_bcast = tkw.broadcast(row_max, [M, N])
        val -= row_max_bcast
        val = tkw.exp(val)
        denominator = tkw.sum(val, dim=N)
        denom_broadcast = tkw.broadcast(denominator, [M, N])
        val = val / denom_broadcast
        tkw.write(val, b)

    rng = np.random.default_rng(1)
    a = rng.standard_normal(shape).astype(np.float32)
    b = np.zeros(shape, dtype=np.float32)

    e = np.exp(a - a.max(axis=1, keepdims=True))
    ref = e / e.sum(axis=1, keepdims=True)

    options = WaveCompileOptions(
        subs={
            M: shape[0],
            N: shape[1],
            ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE,
        },
        canonicalize=True,
        run_bench=False,
        use_buffer_ops=use_buffer_ops,
    )
    options = set_default_run_config(options)
    test = wave_compile(options, test)
    test(a, b)
    np.testing.assert_allclose(b, ref, rtol=1.3e-6, atol=1e-5)
    print("softmax %s passed" % (shape,))
    return test


if __name__ == "__main__":
    for s in [(2, 128), (256, 1024)]:
        k = test_fused_softmax(s)
    print(k.asm[:200])
