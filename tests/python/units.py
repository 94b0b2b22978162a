"""units.py — the fast Python tests: the done-when examples and the tracer's units."""
import json

import numpy as np

import gemm_example
import softmax_example


def gemm():
    k = gemm_example.simple_gemm_test()
    assert "v_mfma_f32_16x16x16" in k.asm, k.asm[:400]
    assert k.code_object[:4] == b"\x7fELF"
    assert json.loads(k.json)["format"] == "wavecc-kernel/1"


def softmax():
    for shape in [(2, 128), (256, 1024)]:
        k = softmax_example.test_fused_softmax(shape)
    assert "v_exp_f32" in k.asm


def compare_detects_differences():
    """The transcription check fails on a kernel that differs from the transcription (a - b for a + b)."""
    import wave_kernels
    import normalize
    import wavecc.wave_lang.kernel.lang as tkl
    import wavecc.wave_lang.kernel.wave as tkw
    from wavecc._compile import emit_kernel
    from wave_kernels import M, N, ADDRESS_SPACE, GLOBAL_ADDRESS_SPACE, _row_constraints, opts

    @tkw.wave(_row_constraints(27))
    def test(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
             c: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16]):
        tkw.write(tkw.read(a) - tkw.read(b), c)
    ours, _ = emit_kernel(test, opts({M: 1, N: 27, ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE}))
    theirs = json.load(open(wave_kernels.WAVE_DIR + "/vector_add.json"))
    diffs = normalize.compare(ours, theirs, {"M": 1, "N": 27})
    assert diffs and "sub" in diffs[0], diffs
    ours["graph"][2]["op"] = "add"  # the same kernel with a + b matches
    assert normalize.compare(ours, theirs, {"M": 1, "N": 27}) == []
    assert normalize.compare(ours, theirs, {"M": 1, "N": 300}) != []  # BLOCK_N is Max(Min(N, 256), 64) there




def _copy_kernel(body, dtype=None, extra=None):
    """A row-wise kernel over a, b: f16[M, N] whose body is body(a, b)."""
    import wavecc.wave_lang.kernel.lang as tkl
    import wavecc.wave_lang.kernel.wave as tkw
    from wave_kernels import M, N, ADDRESS_SPACE, _row_constraints

    @tkw.wave(_row_constraints(64))
    def kern(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16]):
        body(a, b)
    return kern


def _raises(fn, *needles):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        msg = str(e)
        for n in needles:
            assert n in msg, "%r not in %r" % (n, msg)
        return msg
    raise AssertionError("no exception")


def errors_name_python_lines():
    """A mistake found while tracing and one found by libwavecc both name the Python line of the op."""
    import inspect
    import wavecc.wave_lang.kernel.wave as tkw
    from wavecc.wave_lang.kernel.wave.compile import wave_compile
    from wave_kernels import M, N, ADDRESS_SPACE, GLOBAL_ADDRESS_SPACE, opts
    here = __file__

    def bad_trace(a, b):
        x = tkw.read(a)
        tkw.write(tkw.cast(x, tkw.f32), b)  # f32 into an f16 buffer
    line = inspect.getsourcelines(bad_trace)[1] + 2
    o = opts({M: 4, N: 64, ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE})
    _raises(lambda: wave_compile(o, _copy_kernel(bad_trace)), "%s:%d" % (here, line), "tkw.write")

    def bad_graph(a, b):
        x = tkw.read(a)
        y = tkw.sum(x, dim=N)
        z = tkw.permute(y, target_shape=[M])
        tkw.write(tkw.broadcast(z, target_shape=[M, N]) * tkw.mma(x, x, x), b)  # mma: no K dim
    line = inspect.getsourcelines(bad_graph)[1] + 4
    msg = _raises(lambda: wave_compile(o, _copy_kernel(bad_graph)), "%s:%d" % (here, line), "mma")
    assert "graph[" in msg  # the library's JSON path is kept after the Python location


def call_with_numpy():
    """Operators, numbers, unpacking, a dynamic symbol and a scalar argument, run through WaveKernel.__call__."""
    import wavecc.wave_lang.kernel.lang as tkl
    import wavecc.wave_lang.kernel.wave as tkw
    from wavecc.wave_lang.kernel.wave.compile import wave_compile
    from wave_kernels import M, N, ADDRESS_SPACE, GLOBAL_ADDRESS_SPACE, opts, _row_constraints

    @tkw.wave(_row_constraints(64))
    def kern(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32], s: tkl.f32, b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32],
             c: tkl.Memory[M, N, ADDRESS_SPACE, tkl.i32]):
        x = tkw.read(a)
        sb = tkw.broadcast(s, target_shape=[M, N])
        y = (x * 2.0 - 1.0) / sb + tkw.maximum(x, -x)
        tkw.write(y, b)
        pos = tkw.cast(x > 0.0, tkl.i32)
        tkw.write(tkw.select(x > 0.0, pos * 7, pos - 3), c)
    o = opts({N: 64, ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE})
    o.dynamic_symbols = [M]
    k = wave_compile(o, kern)
    for m, s in [(3, 2.0), (5, -4.0)]:
        a = np.random.default_rng(m).standard_normal((m, 64)).astype(np.float32)
        b = np.zeros_like(a)
        c = np.zeros((m, 64), np.int32)
        k(a, s, b, c)
        np.testing.assert_allclose(b, (a * 2 - 1) / np.float32(s) + np.abs(a), rtol=1e-6, atol=1e-6)
        assert (c == np.where(a > 0, 7, -3)).all(), c
    assert "v_" in k.asm
    # the scalar's value goes to the run: another value at a size already seen compiles nothing
    k(a, 0.5, b, c)
    np.testing.assert_allclose(b, (a * 2 - 1) / np.float32(0.5) + np.abs(a), rtol=1e-6, atol=1e-6)
    assert len(k._compiled) == 2, k._compiled.keys()
    _raises(lambda: k(a, 1.0, b.astype(np.float16), c), "argument b", "f32")


def tests():
    return [("gemm_5_example", gemm), ("fused_softmax", softmax),
            ("compare_detects_differences", compare_detects_differences),
            ("errors_name_python_lines", errors_name_python_lines), ("call_with_numpy", call_with_numpy)]
