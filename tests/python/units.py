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


def tests():
    return [("gemm_5_example", gemm), ("fused_softmax", softmax),
            ("compare_detects_differences", compare_detects_differences)]
