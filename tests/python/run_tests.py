"""run_tests.py — the Python package's tests: `run_tests.py fast`, `full` or `slow`.

fast: Wave's 5_gemm.py GEMM and the fused softmax (imports changed only) against numpy
references on the emulator, and the tracer's units (tests/python/units.py); the kernels of Wave's
examples and e2e tests that needed the package's later additions, and the compiled kernel's run-time
features (tests/python/wave_examples.py); Wave's own tests transcribed with numpy at small shapes
(tests/python/wave_e2e.py tests(), tests/python/wave_more.py tests()); Wave's kernel templates at small shapes (tests/python/templates.py tests());
Wave's GEMM on CPU torch tensors (tests/python/torch_example.py, its own process; SKIP without torch).
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


def run_cases(cases):
    """Run (name, fn) cases, printing PASS or FAIL and the traceback of each; the failures."""
    failed = 0
    for name, fn in cases:
        t = time.time()
        try:
            fn()
            print("PASS %s (%.2f s)" % (name, time.time() - t))
        except Exception:
            failed += 1
            print("FAIL %s" % name)
            traceback.print_exc(file=sys.stdout)
    return failed


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
    failed = run_cases(tests)
    ran = len(tests)
    if mode == "fast":
        # Wave's programs on CPU torch tensors, in a process of their own (importing torch
        # changes what torch_utils' makers return); SKIP without torch
        import subprocess
        t = time.time()
        r = subprocess.run([sys.executable, "-B", os.path.join(HERE, "torch_example.py")], capture_output=True,
                           text=True)
        sys.stdout.write(r.stdout + r.stderr)
        ran += 1
        if r.returncode != 0:
            failed += 1
            print("FAIL torch_example.py (exit %d)" % r.returncode)
        else:
            print("PASS torch_example.py (%.2f s)" % (time.time() - t))
    print("%d of %d passed" % (ran - failed, ran))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
