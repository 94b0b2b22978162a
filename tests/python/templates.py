"""templates.py — wavecc.wave_lang.kernel.wave.templates: each template traced at a Wave test's parameters,
compiled, run on the emulator and compared with a numpy reference (Wave's tolerances where its test has them).

Wave's tests call the templates the way these functions do (the test each follows is named); tensors are numpy
arrays (Wave makes torch tensors on the GPU). tests() gives the fast ones (small shapes), slow_tests() the rest.
"""
import numpy as np

import wavecc.wave_lang.kernel.lang as tkl
import wavecc.wave_lang.kernel.wave as tkw
from wavecc.wave_lang.kernel.wave.compile import WaveCompileOptions, wave_compile
from wavecc.wave_lang.kernel.wave.constraints import MMAType
from wavecc.wave_lang.kernel.wave.utils.run_utils import set_default_run_config
from wavecc.wave_lang.kernel.wave.scheduling.schedule import SchedulingType

RNG = np.random.default_rng(7)


def randn(*shape, dtype=np.float16):
    return RNG.standard_normal(shape).astype(dtype)


def close(got, want, rtol=1e-3, atol=1e-3, what=""):
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    if not np.allclose(got, want, rtol=rtol, atol=atol):
        i = np.unravel_index(np.argmax(np.abs(got - want)), got.shape)
        raise AssertionError("%s: max |diff| %g at %s (got %g, want %g)" % (
            what, np.abs(got - want).max(), i, got[i], want[i]))


def compile_(kernel, hyperparams, dynamic_symbols=(), schedule=SchedulingType.NONE, **kw):
    options = WaveCompileOptions(subs=hyperparams, canonicalize=True, dynamic_symbols=list(dynamic_symbols),
                                 schedule=schedule, **kw)
    options = set_default_run_config(options)
    return wave_compile(options, kernel)


# ---- gemm.py (wave_gemm_test.py) ----

def _gemm_ref(a, b):
    return a.astype(np.float32) @ b.astype(np.float32).T


def gemm(shape=(64, 64, 64), dynamic=False, mfma=MMAType.F32_16x16x16_F16, schedule=SchedulingType.NONE,
         block_shape=None):
    """testPureGemm: get_gemm_kernel, static or dynamic dims."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates.gemm import get_gemm_kernel
        kernel, hp, dyn = get_gemm_kernel(shape, dynamic, mfma, np.float16, block_shape=block_shape)
        g = compile_(kernel, hp, dyn, schedule)
        a, b = randn(shape[0], shape[2]), randn(shape[1], shape[2])
        c = np.zeros((shape[0], shape[1]), np.float32)
        g(a, b, c)
        close(c, _gemm_ref(a, b), 1e-3, 1e-2, "gemm")
    return run


def gemm_transpose_a_b(shape=(64, 64, 64)):
    """testGemmTransposeAB-like: A[K, M], B[K, N] read through IteratorBindings."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates.gemm import get_gemm_kernel_transpose_a_b
        kernel, hp, dyn = get_gemm_kernel_transpose_a_b(shape, False, MMAType.F32_16x16x16_F16, np.float16)
        g = compile_(kernel, hp, dyn)
        a, b = randn(shape[2], shape[0]), randn(shape[2], shape[1])
        c = np.zeros((shape[0], shape[1]), np.float32)
        g(a, b, c)
        close(c, a.astype(np.float32).T @ b.astype(np.float32), 1e-3, 1e-2, "gemm_transpose_a_b")
    return run


def splitk_gemm(shape=(64, 64, 256), num_splits=2):
    """testSplitKGemm: get_splitk_gemm_kernel, C zeroed, partial products added atomically."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates.gemm import get_splitk_gemm_kernel
        kernel, hp = get_splitk_gemm_kernel(shape, num_splits, MMAType.F32_16x16x16_F16, np.float16)
        g = compile_(kernel, hp)
        a, b = randn(shape[0], shape[2]), randn(shape[1], shape[2])
        c = np.zeros((shape[0], shape[1]), np.float32)
        g(a, b, c)
        close(c, _gemm_ref(a, b), 1e-3, 1e-2, "splitk_gemm")
    return run


def persistent_gemm(shape=(256, 256, 64), block_shape=(64, 64, 32), num_ctas=3, reordering=False):
    """test_persistent_gemm / test_persistent_reordering_gemm: a fixed grid walking the tiles."""
    def run():
        from wavecc.wave_lang.kernel.wave.templates import gemm as t
        if reordering:  # test_persistent_reordering_gemm: Wave's tiles, one per workgroup
            kernel, hp = t.get_persistent_reordering_kernel(shape=shape, mfma_variant=MMAType.F32_16x16x16_F16,
                                                            threads_per_wave=64, waves_per_block=(2, 2))
        else:
            kernel, hp = t.get_persistent_gemm_kernel(shape, MMAType.F32_16x16x16_F16, block_shape=block_shape,
                                                      waves_per_block=(2, 2), num_ctas=num_ctas)
        g = compile_(kernel, hp)
        a, b = randn(shape[0], shape[2]), randn(shape[1], shape[2])
        c = np.zeros((shape[0], shape[1]), np.float32)
        g(a, b, c)
        close(c, _gemm_ref(a, b), 1e-3, 1e-2, "persistent_gemm")
    return run


def streamk_rejected():
    from wavecc.wave_lang.kernel.wave.templates.gemm import get_streamk_gemm_kernel
    try:
        get_streamk_gemm_kernel((256, 256, 256), MMAType.F32_16x16x16_F16)
    except NotImplementedError as e:
        assert "stream-K" in str(e), e
        return
    raise AssertionError("get_streamk_gemm_kernel did not raise")


def tests():
    return [
        ("templates.gemm.get_gemm_kernel 64^3", gemm()),
        ("templates.gemm.get_gemm_kernel dynamic 96x80x128", gemm((96, 80, 128), True)),
        ("templates.gemm.get_gemm_kernel_transpose_a_b", gemm_transpose_a_b()),
        ("templates.gemm.get_splitk_gemm_kernel", splitk_gemm()),
        ("templates.gemm.get_persistent_gemm_kernel", persistent_gemm()),
        ("templates.gemm.get_persistent_reordering_kernel", persistent_gemm((300, 300, 300), reordering=True)),
        ("templates.gemm.get_streamk_gemm_kernel rejected", streamk_rejected),
    ]


def slow_tests():
    return [
        ("templates.gemm.get_gemm_kernel 1024x1024x1024 prefetch",
         gemm((1024, 1024, 1024), False, schedule=SchedulingType.PREFETCH)),
    ]


if __name__ == "__main__":
    import sys
    import time
    import traceback
    sel = sys.argv[1:]
    failed = 0
    for name, fn in tests() + slow_tests():
        if sel and not any(s in name for s in sel):
            continue
        t = time.time()
        try:
            fn()
            print("PASS %s (%.2f s)" % (name, time.time() - t))
        except Exception:
            failed += 1
            print("FAIL %s" % name)
            traceback.print_exc()
    sys.exit(1 if failed else 0)
