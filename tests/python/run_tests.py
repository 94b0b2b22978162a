"""run_tests.py — the Python package's tests: `run_tests.py fast`, `full` or `slow`.

fast: Wave's 5_gemm.py GEMM and the fused softmax (imports changed only) against numpy
references on the emulator, and the tracer's units (tests/python/units.py); the kernels of Wave's
examples and e2e tests that needed the package's later additions, and the compiled kernel's run-time
features (tests/python/wave_examples.py); Wave's own tests transcribed with numpy at small shapes
(tests/python/wave_e2e.py tests(), tests/python/wave_more.py tests()); Wave's kernel templates at small shapes (tests/python/templates.py tests()).
full: the kernels of tests/driver/wave/*.json written in the Python DSL
(tests/python/wave_kernels.py): each traced graph must equal the hand transcription
after normalisation, and its compiled code must match the reference interpreter on the
emulator; Wave's tests at more of their parameters (wave_e2e.py and wave_more.py slow_tests()); the templates at Wave's larger
shapes (templates.py slow_tests()). Prints SKIP and passes when numpy
or sympy is missing.
"""
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "fast"
    try:
        import numpy  # noqa: F401
        import sympy  # noqa: F401,F811
    except ImportError as e:
        print("SKIP: python tests need numpy and sympy (python3-numpy python3-sympy): %s" % e)
        return 0
    if mode == "fast":
        import units
        import wave_examples
        import wave_e2e
        import wave_more
        import templates
        tests = units.tests() + wave_examples.tests() + wave_e2e.tests() + wave_more.tests() + templates.tests()
    elif mode == "slow":
        import templates
        tests = templates.largest_tests()
    else:
        import wave_kernels
        import wave_e2e
        import wave_more
        import templates
        tests = wave_kernels.tests() + wave_e2e.slow_tests() + wave_more.slow_tests() + templates.slow_tests()
    failed = 0
    for name, fn in tests:
        t = time.time()
        try:
            fn()
            print("PASS %s (%.2f s)" % (name, time.time() - t))
        except Exception:
            failed += 1
            print("FAIL %s" % name)
            traceback.print_exc(file=sys.stdout)
    print("%d of %d passed" % (len(tests) - failed, len(tests)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
