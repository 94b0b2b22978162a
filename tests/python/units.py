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




def number_keys_in_subs():
    """A subs entry keyed by a number (Wave's codegen test_scanop_cumsum binds BLOCK_N = 64, then writes
    {BLOCK_N: 64}) is no symbol: it is left out, as Wave's substitution ignores it."""
    import wavecc.wave_lang.kernel.lang as tkl
    import wavecc.wave_lang.kernel.wave as tkw
    from wavecc._compile import emit_kernel
    from wave_kernels import M, N, ADDRESS_SPACE, GLOBAL_ADDRESS_SPACE, opts

    def body(a, b):
        tkw.write(tkw.read(a), b)
    doc, _ = emit_kernel(_copy_kernel(body), opts({M: 4, N: 64, 64: 64, 1: 1, ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE}))
    assert "64" not in doc["symbols"] and "1" not in doc["symbols"], doc["symbols"]
    assert doc["symbols"]["N"] == 64


def hints_and_softsign():
    """Wave's scheduling ops and softsign are recorded as the format's nodes (lit codegen.py's
    test_scheduling_ops and test_unary_lowerings); the kernel passes on the emulator, with its s_setprio and
    s_waitcnt vmcnt(2) in the assembly."""
    import wavecc.wave_lang.kernel.wave as tkw
    from wavecc._compile import emit_kernel
    from wave_kernels import M, N, ADDRESS_SPACE, GLOBAL_ADDRESS_SPACE, opts

    def body(a, b):
        tkw.set_wave_prio(1)
        r = tkw.read(a)
        tkw.memory_counter_wait_barrier(load=3, store=2)
        tkw.memory_counter_wait(ds=1, exp=0)
        tkw.scheduling_barrier([])
        tkw.scheduling_group_barrier({}, 0)
        tkw.set_wave_prio(0)
        tkw.write(tkw.softsign(r, logit_cap=30.0, apply_scaling=True, head_dim=128), b)
    doc, k = emit_kernel(_copy_kernel(body), opts({M: 4, N: 64, ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE}))
    ops = [n["op"] for n in doc["graph"]]
    for o in ("set_wave_prio", "memory_counter_wait_barrier", "memory_counter_wait", "scheduling_barrier",
              "scheduling_group_barrier", "softsign"):
        assert o in ops, ops
    ss = next(n for n in doc["graph"] if n["op"] == "softsign")
    assert ss["head_dim"] == 128 and ss["apply_scaling"] is True, ss
    wait = next(n for n in doc["graph"] if n["op"] == "memory_counter_wait_barrier")
    assert wait["load"] == 3 and wait["store"] == 2 and "ds" not in wait, wait
    import os, subprocess, tempfile, wave_kernels
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "k.json")
        json.dump(doc, open(path, "w"))
        r = subprocess.run([os.path.join(wave_kernels.BUILD, "wavecc"), "run", path], capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 0 and "PASS" in r.stdout, r.stdout + r.stderr
        r = subprocess.run([os.path.join(wave_kernels.BUILD, "wavecc"), "compile", "-S", path, "-o", "-"],
                           capture_output=True, text=True, timeout=120)
        assert "s_setprio 1" in r.stdout and "s_waitcnt vmcnt(2)" in r.stdout, r.stderr


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
        tkw.write(tkw.permute(x, target_shape=[M]), b)  # a permute that drops a dim
    line = inspect.getsourcelines(bad_trace)[1] + 2
    o = opts({M: 4, N: 64, ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE})
    _raises(lambda: wave_compile(o, _copy_kernel(bad_trace)), "%s:%d" % (here, line), "tkw.permute")

    def cast_on_write(a, b):  # Wave's write converts to the memory's dtype: f32 into an f16 buffer
        tkw.write(tkw.cast(tkw.read(a), tkw.f32) * 2.0, b)
    import numpy as np
    x = np.linspace(-1, 1, 256).astype(np.float16).reshape(4, 64)
    y = np.zeros_like(x)
    wave_compile(o, _copy_kernel(cast_on_write))(x, y)
    assert np.array_equal(y, (x.astype(np.float32) * 2).astype(np.float16))

    def bad_graph(a, b):
        x = tkw.read(a)
        y = tkw.sum(x, dim=N)
        z = tkw.permute(y, target_shape=[M])
        tkw.write(tkw.broadcast(z, target_shape=[M, N]) * tkw.mma(x, x, x), b)  # mma: no K dim
    line = inspect.getsourcelines(bad_graph)[1] + 4
    msg = _raises(lambda: wave_compile(o, _copy_kernel(bad_graph)), "%s:%d" % (here, line), "mma")
    assert "graph[" in msg  # the library's JSON path is kept after the Python location


def max_trips_checked():
    """tkw.iterate's max_trips (wavecc's): only on a loop with a condition, an integer or an index expression;
    each misuse is a trace error naming max_trips at the Python line."""
    import sympy
    import wavecc.wave_lang.kernel.wave as tkw
    from wavecc.wave_lang.kernel.wave.compile import wave_compile
    from wave_kernels import M, N, ADDRESS_SPACE, GLOBAL_ADDRESS_SPACE, opts
    o = opts({M: 4, N: 64, ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE})
    W = sympy.Symbol("W")

    def counted(a, b):
        @tkw.iterate(N, init_args=[tkw.read(a)], max_trips=4)
        def loop(x):
            return x
        tkw.write(loop, b)

    def not_a_number(a, b):
        x = tkw.read(a)

        @tkw.iterate(W, start=x, condition=W >= 0, init_args=[x], max_trips=1.5)
        def loop(x):
            return x
        tkw.write(loop, b)
    _raises(lambda: wave_compile(o, _copy_kernel(counted)), "max_trips", "with a condition")
    _raises(lambda: wave_compile(o, _copy_kernel(not_a_number)), "max_trips must be an integer")


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


def scaled_gemm_mxfp4():
    """Wave's testScaledGemmMXFP4 (wave_gemm_mxfp_test.py, imports changed) traces to the transcription
    tests/driver/wave/scaled_gemm_mxfp4.json; its JSON interprets to Wave's torchScaledGemmMXFP4 reference
    (mxfp_utils.py, in numpy here); compiling it is rejected at the scaled_mma; the MXFP8 form's bitcast keeps K
    and the type errors name the Python line."""
    import os
    import subprocess
    import tempfile
    import normalize
    import wave_kernels
    import wavecc.wave_lang.kernel.lang as tkl
    import wavecc.wave_lang.kernel.wave as tkw
    from wavecc._compile import emit_kernel
    from wavecc.wave_lang.kernel.lang.global_symbols import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE
    from wave_kernels import M, N, K, BLOCK_M, BLOCK_N, BLOCK_K, ADDRESS_SPACE, opts

    def build(elem, k_packed):
        constraints = [tkw.WorkgroupConstraint(M, BLOCK_M, 0)]
        constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 1)]
        constraints += [tkw.TilingConstraint(K, BLOCK_K)]
        constraints += [tkw.WaveConstraint(M, BLOCK_M / 2)]
        constraints += [tkw.WaveConstraint(N, BLOCK_N / 2)]
        constraints += [tkw.HardwareConstraint(threads_per_wave=64,
                                               mma_type=tkw.ScaledMMAType.F32_16x16x128_F8F6F4)]

        @tkw.wave(constraints)
        def gemm(a: tkl.Memory[M, k_packed, ADDRESS_SPACE, tkl.i8],
                 a_scale: tkl.Memory[M, K / 32, ADDRESS_SPACE, tkl.i8],
                 b: tkl.Memory[N, k_packed, ADDRESS_SPACE, tkl.i8],
                 b_scale: tkl.Memory[N, K / 32, ADDRESS_SPACE, tkl.i8],
                 c: tkl.Memory[M, N, GLOBAL_ADDRESS_SPACE, tkl.f32]):
            c_reg = tkl.Register[M, N, tkl.f32](0.0)

            @tkw.iterate(K, init_args=[c_reg])
            def repeat(acc: tkl.Register[M, N, tkl.f32]) -> tkl.Register[M, N, tkl.f32]:
                a_reg = tkw.read(a)
                a_reg = tkw.bitcast(a_reg, elem)
                a_scale_reg = tkw.read(a_scale)
                a_scale_reg = tkw.bitcast(a_scale_reg, tkl.f8e8m0fnu)
                b_reg = tkw.read(b)
                b_reg = tkw.bitcast(b_reg, elem)
                b_scale_reg = tkw.read(b_scale)
                b_scale_reg = tkw.bitcast(b_scale_reg, tkl.f8e8m0fnu)
                acc = tkw.scaled_mma(a_reg, a_scale_reg, b_reg, b_scale_reg, acc)
                return acc

            tkw.write(repeat, c)
        return gemm

    subs = {ADDRESS_SPACE: SHARED_ADDRESS_SPACE, BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 256, M: 1024, N: 1024, K: 1024}
    defs = {"M": 1024, "N": 1024, "K": 1024}
    for name, elem, kp in [("scaled_gemm_mxfp4.json", tkl.f4e2m1fn, K / 2), ("scaled_gemm_mxfp8.json", tkl.f8e5m2, K)]:
        ours, _ = emit_kernel(build(elem, kp), opts(subs))
        theirs = json.load(open(os.path.join(wave_kernels.WAVE_DIR, name)))
        diffs = normalize.compare(ours, theirs, defs)
        assert not diffs, "%s:\n%s" % (name, "\n".join(diffs))
    ours, _ = emit_kernel(build(tkl.f4e2m1fn, K / 2), opts(subs))
    # Wave's generate_gemm_afp4wfp4_inputs and torchScaledGemmMXFP4, in numpy, at (64, 64, 512)
    m, n, k = 64, 64, 512
    rng = np.random.default_rng(5)
    x = (rng.integers(0, 16, (m, k // 2)) | (rng.integers(0, 16, (m, k // 2)) << 4)).astype(np.uint8)
    w = (rng.integers(0, 16, (n, k // 2)) | (rng.integers(0, 16, (n, k // 2)) << 4)).astype(np.uint8)
    xs = rng.integers(124, 128, (m, k // 32)).astype(np.uint8)
    ws = rng.integers(124, 128, (n, k // 32)).astype(np.uint8)
    lut = np.array([0, .5, 1, 1.5, 2, 3, 4, 6, -0., -.5, -1, -1.5, -2, -3, -4, -6])

    def f32(p, s):
        v = np.empty((p.shape[0], 2 * p.shape[1]))
        v[:, 0::2], v[:, 1::2] = lut[p & 15], lut[p >> 4]
        return v * np.repeat(2.0 ** (s.astype(np.float64) - 127), 32, axis=1)
    ref = f32(x, xs) @ f32(w, ws).T
    wavecc = os.path.join(wave_kernels.BUILD, "wavecc")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "k.json")
        json.dump(ours, open(path, "w"))
        ins = []
        for nm, arr in [("a", x), ("a_scale", xs), ("b", w), ("b_scale", ws)]:
            np.save(os.path.join(d, nm + ".npy"), arr.view(np.int8))
            ins += ["--in", "%s=%s" % (nm, os.path.join(d, nm + ".npy"))]
        out = os.path.join(d, "c.npy")
        r = subprocess.run([wavecc, "interp", path, "-D", "M=%d" % m, "-D", "N=%d" % n, "-D", "K=%d" % k] + ins +
                           ["--out", "c=" + out], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        c = np.load(out)
        assert np.array_equal(c, ref.astype(np.float32)), np.abs(c - ref).max()
        # gfx950 compiles it (v_mfma_scale_f32_16x16x128_f8f6f4); gfx942 rejects it, naming itself
        r = subprocess.run([wavecc, "compile", path, "--mcpu", "gfx950", "-o", os.path.join(d, "k.hsaco")],
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        r = subprocess.run([wavecc, "compile", path, "--mcpu", "gfx942", "-o", os.path.join(d, "k.hsaco")],
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 1 and "which gfx942 does not have" in r.stderr, r.stderr

    def bad_scale(a: tkl.Memory[M, K / 2, ADDRESS_SPACE, tkl.i8], c: tkl.Memory[M, N, GLOBAL_ADDRESS_SPACE, tkl.f32]):
        r = tkw.bitcast(tkw.read(a), tkl.f4e2m1fn)
        tkw.write(tkw.scaled_mma(r, r, r, r, tkl.Register[M, N, tkl.f32](0.0)), c)
    _raises(lambda: emit_kernel(tkw.wave(build(tkl.f4e2m1fn, K / 2).constraints)(bad_scale), opts(subs)),
            "units.py", "lhs_scale", "not f8e8m0fnu")


def tracer_gaps():
    """debug_log adds a write of its value to a hidden argument (the rest of the kernel and its results are those
    without it) whose array the call returns in debug_logs; reshape and shuffle raise a
    NotImplementedError naming the op and the Python line; tag= goes with every op; iterate's start and condition
    go together; a GridConstraint and an apply_fn are emitted as the format's."""
    import inspect
    import numpy as np
    import sympy
    import wavecc.wave_lang.kernel.lang as tkl
    import wavecc.wave_lang.kernel.wave as tkw
    from wavecc._compile import emit_kernel
    from wavecc.wave_lang.kernel.wave.compile import wave_compile
    from wavecc.wave_lang.kernel.lang.global_symbols import WORKGROUP_0
    from wave_kernels import M, N, ADDRESS_SPACE, GLOBAL_ADDRESS_SPACE, opts
    here = __file__
    o = opts({M: 4, N: 64, ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE})

    def logged(a, b):
        x = tkw.read(a, tag="r")
        tkw.debug_log(x, label="x")
        tkw.write(tkw.exp2(x, tag="e"), b, tag="w")

    def plain(a, b):
        tkw.write(tkw.exp2(tkw.read(a)), b)
    strip = (lambda d: json.dumps([{k: v for k, v in n.items() if k not in ("loc", "name")} for n in d["graph"]
                                   if not (n["op"] == "write" and n["memory"] == "x")]))
    doc = emit_kernel(_copy_kernel(logged), o)[0]
    assert strip(doc) == strip(emit_kernel(_copy_kernel(plain), o)[0])
    assert doc["arguments"][-1] == {"name": "x", "type": "memory", "shape": ["M", "N"], "address_space": "global",
                                    "dtype": "f16"}, doc["arguments"]
    a = np.linspace(-1, 1, 256).astype(np.float16).reshape(4, 64)
    b = np.zeros_like(a)
    logs = {}
    wave_compile(o, _copy_kernel(logged))(a, b, debug_logs=logs)
    assert np.allclose(b.astype(np.float32), np.exp2(a.astype(np.float32)), rtol=1e-3, atol=1e-3)
    assert np.array_equal(logs["x"]["value"], a) and logs["x"]["symbolic_shape"] == [M, N], logs

    for op, call in (("reshape", lambda x: tkw.reshape([x], {N: 4})), ("shuffle", lambda x: tkw.shuffle(x, 1, 64))):
        def body(a, b, call=call):
            tkw.write(call(tkw.read(a)), b)
        try:
            wave_compile(o, _copy_kernel(body))
        except NotImplementedError as e:  # located at the lambda's line, where the op is called
            assert "tkw.%s" % op in str(e) and "%s:" % here in str(e), e
        else:
            raise AssertionError("tkw.%s did not raise" % op)

    def half_while(a, b):
        @tkw.iterate(M, start=0, init_args=[])
        def loop():
            pass
    _raises(lambda: wave_compile(o, _copy_kernel(half_while)), "start and condition go together")

    K, T, NUM, TOT = tkl.sym.K, tkl.sym.T_IDX, tkl.sym.NUM, tkl.sym.TOT
    grid = tkw.GridConstraint(NUM)
    wg = tkw.WorkgroupConstraint(N, tkl.sym.BLOCK_N, 1, apply_fn=lambda w: w // 2)
    assert grid.to_json() == {"kind": "grid", "grid_size": "NUM"}
    assert wg.to_json()["apply_fn"] == "floor($WG1/2)", wg.to_json()

    def while_body(a, b):
        first = tkw.scalar(WORKGROUP_0, tkl.i32)

        @tkw.iterate(T, start=first, condition=T < TOT, init_args=[])
        def loop():
            t = tkw.scalar(T, tkl.i32)
            tkw.set_symbol(T, t + tkw.scalar(NUM, tkl.i32))
    doc, _ = emit_kernel(_copy_kernel(while_body), opts({M: 4, N: 64, ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE}))
    loop = [n for n in doc["graph"] if n["op"] == "iterate"][0]
    assert loop["start"] == doc["graph"][0]["name"] and loop["condition"] == "T_IDX < TOT", loop
    assert "T_IDX" not in doc.get("dynamic_symbols", []), doc.get("dynamic_symbols")
    assert sympy.Symbol  # keeps the import used
    del K


def wave_sim_runs_interpreter():
    """wave_sim(constraints)(func) (wave_sim_test.py's eltwise, a GEMM) runs on the reference interpreter with no
    hyperparameters: sizes from the arrays, tiles over whole dims, elements per thread dropped."""
    import wavecc.wave_lang.kernel.lang as tkl
    import wavecc.wave_lang.kernel.wave as tkw
    from wavecc.wave_lang.kernel.wave.wave_sim import wave_sim
    M, N, K = tkl.sym.M, tkl.sym.N, tkl.sym.K
    BM, BN, BK, AS = tkl.sym.BLOCK_M, tkl.sym.BLOCK_N, tkl.sym.BLOCK_K, tkl.sym.ADDRESS_SPACE
    LE, SE = tkl.sym.LOAD_ELEMS_PER_THREAD, tkl.sym.STORE_ELEMS_PER_THREAD

    @wave_sim([tkw.WorkgroupConstraint(M, BM, 0), tkw.WorkgroupConstraint(N, BN, 1),
               tkw.HardwareConstraint(threads_per_wave=64)])
    def eltwise(a: tkl.Memory[M, N, AS, tkl.f32], b: tkl.Memory[M, N, AS, tkl.f32], c: tkl.Memory[M, N, AS, tkl.f32]):
        tkw.write(tkw.read(a, elements_per_thread=LE) + tkw.read(b, elements_per_thread=LE), c,
                  elements_per_thread=SE)
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((128, 256)).astype(np.float32), rng.standard_normal((128, 256)).astype(np.float32)
    c = np.zeros_like(a)
    eltwise(a, b, c)
    assert np.allclose(c, a + b)

    @wave_sim([tkw.WorkgroupConstraint(M, BM, 0), tkw.WorkgroupConstraint(N, BN, 1), tkw.TilingConstraint(K, BK),
               tkw.WaveConstraint(M, BM / 2), tkw.WaveConstraint(N, BN / 2),
               tkw.HardwareConstraint(threads_per_wave=64, mma_type=tkw.MMAType.F32_16x16x16_F16)])
    def gemm(a: tkl.Memory[M, K, AS, tkl.f16], b: tkl.Memory[N, K, AS, tkl.f16], c: tkl.Memory[M, N, AS, tkl.f32]):
        zero = tkl.Register[M, N, tkl.f32](0.0)

        @tkw.iterate(K, init_args=[zero])
        def loop(acc: tkl.Register[M, N, tkl.f32]) -> tkl.Register[M, N, tkl.f32]:
            return tkw.mma(tkw.read(a, elements_per_thread=LE), tkw.read(b, elements_per_thread=LE), acc)
        tkw.write(loop, c, elements_per_thread=SE)
    a, b = rng.standard_normal((64, 128)).astype(np.float16), rng.standard_normal((96, 128)).astype(np.float16)
    c = np.zeros((64, 96), np.float32)
    gemm(a, b, c)
    assert np.allclose(c, a.astype(np.float32) @ b.astype(np.float32).T, atol=1e-2, rtol=1e-3)


def tests():
    return [("tracer_gaps", tracer_gaps), ("wave_sim_runs_interpreter", wave_sim_runs_interpreter),
            ("gemm_5_example", gemm), ("fused_softmax", softmax),
            ("compare_detects_differences", compare_detects_differences),
            ("errors_name_python_lines", errors_name_python_lines), ("call_with_numpy", call_with_numpy),
            ("scaled_gemm_mxfp4", scaled_gemm_mxfp4), ("number_keys_in_subs", number_keys_in_subs),
            ("hints_and_softsign", hints_and_softsign), ("max_trips_checked", max_trips_checked)]
