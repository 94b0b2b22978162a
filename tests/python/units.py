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


def tests():
    return [("gemm_5_example", gemm), ("fused_softmax", softmax)]
