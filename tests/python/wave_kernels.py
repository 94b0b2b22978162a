"""wave_kernels.py — kernels of tests/driver/wave/*.json written in the Python DSL.

Each builder below is the Wave test the JSON transcribes (tests/driver/wave/README.md
names it), written as in Wave's sources with `wave_lang` imports replaced by
`wavecc.wave_lang`, for the shape of the first passing case tests/driver/wave_test.c
runs. A case passes when
  1. the traced graph equals the hand transcription after normalisation
     (tests/python/normalize.py: names, node order and expression spelling aside), and
  2. `wavecc run` on the traced JSON, with the case's -D values and options, prints
     PASS (the compiled kernel on the emulator against the reference interpreter).
"""
import json
import math
import os
import re
import shlex
import subprocess
import tempfile

import sympy

import wavecc.wave_lang.kernel.lang as tkl
import wavecc.wave_lang.kernel.wave as tkw
from wavecc.wave_lang.kernel.lang.global_symbols import (GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE, WORKGROUP_0,
                                                           WORKGROUP_1, WORKGROUP_2)
from wavecc.wave_lang.kernel.wave.compile import WaveCompileOptions
from wavecc._compile import emit_kernel

import normalize

ROOT = os.environ.get("WAVECC_ROOT") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
WAVE_DIR = os.path.join(ROOT, "tests", "driver", "wave")
BUILD = os.environ.get("WAVECC_BUILD") or os.path.join(ROOT, "build")

M, N, K, B, S = tkl.sym.M, tkl.sym.N, tkl.sym.K, tkl.sym.B, tkl.sym.S
BLOCK_M, BLOCK_N, BLOCK_K, BLOCK_B, BLOCK_S = (tkl.sym.BLOCK_M, tkl.sym.BLOCK_N, tkl.sym.BLOCK_K, tkl.sym.BLOCK_B,
                                               tkl.sym.BLOCK_S)
ADDRESS_SPACE, ADDRESS_SPACE_0 = tkl.sym.ADDRESS_SPACE, tkl.sym.ADDRESS_SPACE_0
LOAD_ELEMS_PER_THREAD, STORE_ELEMS_PER_THREAD = tkl.sym.LOAD_ELEMS_PER_THREAD, tkl.sym.STORE_ELEMS_PER_THREAD


def first_case(json_name):
    """The -D values and options of wave_test.c's first case of json_name that must PASS."""
    src = open(os.path.join(ROOT, "tests", "driver", "wave_test.c")).read()
    for m in re.finditer(r'\{"(%s(?: [^"]*)?)", NULL, NULL\}' % re.escape(json_name), src):
        words = shlex.split(m.group(1))[1:]
        defs, rest = {}, []
        i = 0
        while i < len(words):
            if words[i] == "-D":
                k, v = words[i + 1].split("=", 1)
                defs[k] = v
                i += 2
            else:
                rest.append(words[i])
                i += 1
        return defs, rest
    raise AssertionError("no passing case of %s in wave_test.c" % json_name)


def int_defs(defs):
    out = {}
    for k, v in defs.items():
        try:
            out[k] = int(v)
        except ValueError:
            pass
    return out


def check(json_name, build):
    defs, flags = first_case(json_name)
    kernel, options = build(int_defs(defs))
    ours, _ = emit_kernel(kernel, options)
    theirs = json.load(open(os.path.join(WAVE_DIR, json_name)))
    diffs = normalize.compare(ours, theirs, int_defs(defs))
    if diffs:
        raise AssertionError("%s: the traced graph differs from the transcription:\n%s\ntraced:\n%s" % (
            json_name, "\n".join(diffs), json.dumps(ours, indent=1)))
    names = set(ours.get("symbols", {})) | set(ours.get("dynamic_symbols", [])) | \
        {a["name"] for a in ours["arguments"] if a["type"] == "scalar"}
    args = []
    for k, v in defs.items():
        if k in names:
            args += ["-D", "%s=%s" % (k, v)]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(ours, f, indent=1)
        path = f.name
    try:
        r = subprocess.run([os.path.join(BUILD, "wavecc"), "run", path] + args + flags, capture_output=True,
                           text=True, timeout=300)
    finally:
        os.unlink(path)
    out = r.stdout + r.stderr
    if r.returncode != 0 or "PASS" not in out:
        raise AssertionError("%s: wavecc run %s: exit %d\n%s" % (json_name, " ".join(args + flags), r.returncode,
                                                                  out[-3000:]))


def opts(subs, **kw):
    return WaveCompileOptions(subs=subs, canonicalize=True, **kw)


# ---- elementwise, copies, memory (tests/kernel/e2e/test_copy.py, test_elementwise.py, ...) ----

def _row_constraints(shape_n, m_block=1):
    wave_size = 64
    BLOCK_M_ = m_block
    BLOCK_N_ = sympy.Max(sympy.Min(shape_n, 256), wave_size)
    constraints = [tkw.HardwareConstraint(threads_per_wave=wave_size, vector_shapes={M: BLOCK_M_, N: BLOCK_N_})]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M_, 1)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N_, 0)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M_)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N_)]
    return constraints


def copy(d):
    @tkw.wave(_row_constraints(d["N"]))
    def test(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16]):
        res = tkw.read(a)
        tkw.write(res, b)
    return test, opts({M: d["M"], N: d["N"], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE})


def dynamic_copy(d):
    wave_size = 64
    BLOCK_M_ = 1
    constraints = [tkw.HardwareConstraint(threads_per_wave=wave_size, vector_shapes={M: BLOCK_M, N: BLOCK_N})]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M, 1)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 0)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N)]

    @tkw.wave(constraints)
    def test(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16]):
        res = tkw.read(a)
        tkw.write(res, b)
    o = opts({ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE, BLOCK_M: BLOCK_M_, BLOCK_N: d["BLOCK_N"]})
    o.dynamic_symbols = [M, N]
    return test, o


def vector_add(d):
    @tkw.wave(_row_constraints(d["N"]))
    def test(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
             c: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16]):
        lhs = tkw.read(a)
        rhs = tkw.read(b)
        res = lhs + rhs
        tkw.write(res, c)
    return test, opts({M: d["M"], N: d["N"], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE})


def cast(d):
    @tkw.wave(_row_constraints(d["N"]))
    def test(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32], b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16]):
        res = tkw.read(a)
        res = tkw.cast(res, tkl.f16)
        tkw.write(res, b)
    return test, opts({M: d["M"], N: d["N"], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE})


def broadcast_scaled_add(d):
    shape = (256, 256)

    @tkw.wave(_row_constraints(shape[1]))
    def test(a: tkl.Memory[M, N / 2, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[M, ADDRESS_SPACE, tkl.f16],
             c: tkl.Memory[M, N / 2, ADDRESS_SPACE, tkl.f16]):
        lhs = tkw.read(a)
        rhs = tkw.read(b)
        rhs_b = tkw.broadcast(rhs, target_shape=[M, N / 2])
        res = lhs + rhs_b
        tkw.write(res, c)
    return test, opts({M: shape[0], N: shape[1], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE})


def read_write_same(d):
    @tkw.wave(_row_constraints(d["N"]))
    def test(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16]):
        res = tkw.read(a)
        double = res + res
        tkw.write(double, a)
    return test, opts({M: d["M"], N: d["N"], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE})


def transpose_read(d):
    wave_size = 64
    BLOCK_N_ = 1
    BLOCK_M_ = sympy.Max(sympy.Min(d["M"], 256), wave_size)
    constraints = [tkw.HardwareConstraint(threads_per_wave=wave_size, vector_shapes={N: BLOCK_N_, M: BLOCK_M_})]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N_, 1)]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M_, 0)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N_)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M_)]
    i = tkw.IndexMapping.iterator(0)
    j = tkw.IndexMapping.iterator(1)
    mapping = tkw.IndexMapping(num_iterators=2, inputs={N: i, M: j}, outputs={N: i, M: j})

    @tkw.wave(constraints)
    def test(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[N, M, ADDRESS_SPACE, tkl.f16]):
        res = tkw.read(a, mapping=mapping)
        tkw.write(res, b)
    return test, opts({M: d["M"], N: d["N"], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE})


def transpose_write(d):
    i = tkw.IndexMapping.iterator(0)
    j = tkw.IndexMapping.iterator(1)
    mapping = tkw.IndexMapping(num_iterators=2, inputs={M: i, N: j}, outputs={M: i, N: j})

    @tkw.wave(_row_constraints(d["N"]))
    def test(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[N, M, ADDRESS_SPACE, tkl.f16]):
        res = tkw.read(a)
        tkw.write(res, b, mapping=mapping)
    return test, opts({M: d["M"], N: d["N"], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE})


def offset_read(d):
    i = tkw.IndexMapping.iterator(0)
    j = tkw.IndexMapping.iterator(1)
    k = tkw.IndexMapping.dynamic_val(0)
    mapping = tkw.IndexMapping(num_iterators=2, inputs={M: k, N: j}, outputs={M: i, N: j})

    @tkw.wave(_row_constraints(d["N"]))
    def test(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16], off: tkl.Memory[M, N, ADDRESS_SPACE, tkl.i32],
             b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16]):
        offset = tkw.read(off)
        res = tkw.read(a, mapping=mapping, mapping_dynamic_vals=(offset,))
        tkw.write(res, b)
    return test, opts({M: d["M"], N: d["N"], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE})


def scalar_codegen_f32(shape):
    @tkw.wave(_row_constraints(shape["N"]))
    def test(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32], c: tkl.f32, d: tkl.f32,
             b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32]):
        res = tkw.read(a)
        c_b = tkw.broadcast(c, target_shape=[M, N])
        d_b = tkw.broadcast(d, target_shape=[M, N])
        e = tkl.Register[M, N, tkl.f32](1.0) * c_b
        res = res + e + d_b
        tkw.write(res, b)
    return test, opts({M: shape["M"], N: shape["N"], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE})


def conditional(d):
    wave_size = 64
    constraints = [tkw.HardwareConstraint(threads_per_wave=wave_size, vector_shapes={M: BLOCK_M, N: BLOCK_N})]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M, 1)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 0)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N)]

    @tkw.wave(constraints)
    def test(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16], mask: tkl.Memory[M, N, ADDRESS_SPACE, tkl.i32],
             b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16]):
        res = tkw.read(a)
        mask_val = tkw.read(mask)
        cond = tkw.apply_expr(mask_val, lambda x: x > 0)

        @tkw.conditional(cond)
        def then():
            tkw.write(res, b)
    return test, opts({M: d["M"], N: d["N"], BLOCK_M: 1, BLOCK_N: 64, ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE})


def conditional_return(d):
    wave_size = 64
    BLOCK_M_ = 1
    BLOCK_N_ = sympy.Max(sympy.Min(27, 256), wave_size)
    constraints = [tkw.HardwareConstraint(threads_per_wave=wave_size, vector_shapes={M: BLOCK_M_, N: BLOCK_N_})]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M_, 1)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N_, 0)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M_)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N_)]

    @tkw.wave(constraints)
    def test(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
             threshold: tkl.i32):
        zero_reg = tkl.Register[M, N, tkl.f32](0.0)  # noqa: F841 (as in Wave's test)
        threshold_scalar = tkw.scalar(10, tkl.i32)
        a_reg = tkw.read(a, elements_per_thread=LOAD_ELEMS_PER_THREAD)

        @tkw.conditional(threshold > threshold_scalar, else_return=[a_reg])
        def process_data(a: tkl.Register[M, N, tkl.f32]) -> tkl.Register[M, N, tkl.f32]:
            return a * tkw.scalar(2.5, tkl.f16)

        tkw.write(process_data, b, elements_per_thread=STORE_ELEMS_PER_THREAD)
    return test, opts({M: 1, N: 27, LOAD_ELEMS_PER_THREAD: 4, STORE_ELEMS_PER_THREAD: 4,
                       ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE})


def set_symbol(d):
    wave_size = 64
    constraints = [tkw.HardwareConstraint(threads_per_wave=wave_size,
                                          vector_shapes={M: BLOCK_M, N: BLOCK_N, S: BLOCK_M})]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M, 1)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 0)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N)]
    i = tkw.IndexMapping.iterator(0)
    j = tkw.IndexMapping.iterator(1)
    mapping = tkw.IndexMapping(num_iterators=2, inputs={S: S, N: j}, outputs={S: i, N: j})

    @tkw.wave(constraints)
    def test(a: tkl.Memory[S, N, ADDRESS_SPACE, tkl.f16], off: tkl.Memory[M, N, ADDRESS_SPACE, tkl.i32],
             b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16]):
        offset = tkw.read(off)
        tkw.set_symbol(S, offset)
        res = tkw.read(a, mapping=mapping)
        tkw.write(res, b)
    o = opts({M: d["M"], N: d["N"], BLOCK_M: 1, BLOCK_N: 64, ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE})
    o.dynamic_symbols = [S]
    return test, o


def apply_expr(d):
    wave_size = 64
    constraints = [tkw.HardwareConstraint(threads_per_wave=wave_size,
                                          vector_shapes={M: BLOCK_M, N: BLOCK_N, S: BLOCK_M})]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M, 1)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 0)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N)]
    i = tkw.IndexMapping.iterator(0)
    j = tkw.IndexMapping.iterator(1)
    mapping = tkw.IndexMapping(num_iterators=2, inputs={S: S, N: j}, outputs={S: i, N: j})

    @tkw.wave(constraints)
    def test(a: tkl.Memory[S, N, ADDRESS_SPACE, tkl.f16], off: tkl.Memory[M, N, ADDRESS_SPACE, tkl.i32],
             b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16]):
        offset = tkw.read(off)
        offset = tkw.apply_expr(offset, lambda a: M - a - 1)
        tkw.set_symbol(S, offset)
        res = tkw.read(a, mapping=mapping)
        tkw.write(res, b)
    o = opts({M: d["M"], N: d["N"], BLOCK_M: 1, BLOCK_N: 64, ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE})
    o.dynamic_symbols = [S]
    return test, o


def atomic_add_no_map(d):
    LIMIT_VAL = tkl.sym.LIMIT_VAL
    num_waves = 1
    shape = (64, 10)
    constraints = [tkw.HardwareConstraint(threads_per_wave=64, waves_per_block=(num_waves, 1, 1),
                                          vector_shapes={B: 0, M: 64, LIMIT_VAL: 0})]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M, 0)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M / num_waves)]
    constraints += [tkw.TilingConstraint(B)]

    @tkw.wave(constraints)
    def test(a: tkl.Memory[M, ADDRESS_SPACE, tkl.i32], c: tkl.Memory[M, ADDRESS_SPACE_0, tkl.i32]):
        one_reg = tkw.Register[M, tkl.i32](1)
        res = tkw.atomic_add(one_reg, a)
        tkw.write(res, c)
    return test, opts({M: shape[0], B: shape[1], BLOCK_M: shape[0], BLOCK_B: 1, LOAD_ELEMS_PER_THREAD: 4,
                       STORE_ELEMS_PER_THREAD: 4, ADDRESS_SPACE: SHARED_ADDRESS_SPACE,
                       ADDRESS_SPACE_0: GLOBAL_ADDRESS_SPACE, LIMIT_VAL: 0})


# ---- reductions (tests/kernel/e2e/test_reductions.py, test_advanced_ops.py) ----

def reduce_sum(d):
    wave_size = 64
    BLOCK_M_ = 1
    BLOCK_N_ = sympy.ceiling(N / wave_size) * wave_size
    constraints = [tkw.HardwareConstraint(threads_per_wave=wave_size, vector_shapes={M: 1, N: BLOCK_N_})]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M_, 1)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N_, 0)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M_)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N_)]

    @tkw.wave(constraints)
    def test(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
             c: tkl.Memory[M, ADDRESS_SPACE, tkl.f16]):
        lhs = tkw.read(a)
        rhs = tkw.read(b)
        res = lhs * rhs
        res = tkw.sum(res, dim=N)
        tkw.write(res, c)
    return test, opts({M: d["M"], N: d["N"], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE})


def block_reduce_sum(d):
    num_waves = 4
    wave_size = 64
    BLOCK_M_ = 1
    ELEMS_PER_WAVE = sympy.Max(sympy.ceiling(sympy.ceiling(N / num_waves) / wave_size) * wave_size, wave_size)
    BLOCK_N_ = num_waves * ELEMS_PER_WAVE
    constraints = [tkw.HardwareConstraint(threads_per_wave=wave_size, vector_shapes={M: 1, N: ELEMS_PER_WAVE})]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M_, 1)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N_, 0)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M_)]
    constraints += [tkw.WaveConstraint(N, ELEMS_PER_WAVE)]

    @tkw.wave(constraints)
    def test(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32], b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32],
             c: tkl.Memory[M, ADDRESS_SPACE, tkl.f32]):
        lhs = tkw.read(a)
        rhs = tkw.read(b)
        res = lhs * rhs
        res = tkw.sum(res, dim=N, block=True)
        tkw.write(res, c)
    return test, opts({M: d["M"], N: d["N"], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE})


def fused_softmax(d):
    BLOCK_M_ = 1
    constraints = [tkw.HardwareConstraint(threads_per_wave=64, vector_shapes={M: BLOCK_M_, N: N})]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M_, 1)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M_)]

    @tkw.wave(constraints)
    def test(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32], b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32]):
        val = tkw.read(a)
        row_max = tkw.max(val, dim=N)
        row_max_bcast = tkw.broadcast(row_max, [M, N])
        val -= row_max_bcast
        val = tkw.exp(val)
        denominator = tkw.sum(val, dim=N)
        denom_broadcast = tkw.broadcast(denominator, [M, N])
        val = val / denom_broadcast
        tkw.write(val, b)
    return test, opts({M: d["M"], N: d["N"], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE})


def toy_online_softmax(d):
    wave_size = 64
    BLOCK_M_ = 1
    BLOCK_N_ = sympy.Max(sympy.Min(128, d["N"]), wave_size)
    constraints = [tkw.HardwareConstraint(threads_per_wave=wave_size, vector_shapes={M: 1, N: BLOCK_N_})]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M_, 1)]
    constraints += [tkw.TilingConstraint(N, BLOCK_N_)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M_)]

    @tkw.wave(constraints)
    def test(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32], b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32],
             c: tkl.Memory[M, ADDRESS_SPACE, tkl.f32]):
        init_max = tkl.Register[M, tkl.f32](-1e6)
        init_sum = tkl.Register[M, tkl.f32](0)

        @tkw.iterate(N, init_args=[init_max, init_sum])
        def repeat(partial_max: tkl.Register[M, tkl.f32], partial_sum: tkl.Register[M, tkl.f32]):
            lhs = tkw.read(a)
            rhs = tkw.read(b)
            res = lhs * rhs
            partial_max = tkw.max(res, partial_max, dim=N)
            partial_sum = tkw.sum(res, partial_sum, dim=N)
            return partial_max, partial_sum

        res_max, res_sum = repeat
        result = res_max / res_sum
        tkw.write(result, c)
    return test, opts({M: d["M"], N: d["N"], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE})


# ---- GEMMs (wave_gemm_test.py, templates/gemm.py) ----

def _gemm_constraints(mma_type, ratio_m=2, ratio_n=2, floor=True):
    constraints = [tkw.WorkgroupConstraint(M, BLOCK_M, 0)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 1)]
    constraints += [tkw.TilingConstraint(K, BLOCK_K)]
    constraints += [tkw.WaveConstraint(M, sympy.floor(BLOCK_M / ratio_m) if floor else BLOCK_M / ratio_m)]
    constraints += [tkw.WaveConstraint(N, sympy.floor(BLOCK_N / ratio_n) if floor else BLOCK_N / ratio_n)]
    constraints += [tkw.HardwareConstraint(threads_per_wave=64, mma_type=mma_type)]
    return constraints


def get_gemm_kernel(shape, dynamic_dims, mfma_variant, dtype=tkl.f16):
    """templates/gemm.py get_gemm_kernel: 64x64x32 tiles, 2x2 waves, a and b in shared memory."""
    constraints = _gemm_constraints(mfma_variant)
    if dynamic_dims:
        constraints += [tkw.Assumption(K > BLOCK_K * 4)]

    @tkw.wave(constraints)
    def gemm(a: tkl.Memory[M, K, ADDRESS_SPACE, dtype], b: tkl.Memory[N, K, ADDRESS_SPACE, dtype],
             c: tkl.Memory[M, N, GLOBAL_ADDRESS_SPACE, tkl.f32]):
        c_reg = tkl.Register[M, N, tkl.f32](0.0)

        @tkw.iterate(K, init_args=[c_reg])
        def repeat(acc: tkl.Register[M, N, tkl.f32]) -> tkl.Register[M, N, tkl.f32]:
            a_reg = tkw.read(a)
            b_reg = tkw.read(b)
            acc = tkw.mma(a_reg, b_reg, acc)
            return acc

        tkw.write(repeat, c)
    subs = {ADDRESS_SPACE: SHARED_ADDRESS_SPACE, BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, M: shape[0], N: shape[1],
            K: shape[2]}
    o = opts(subs)
    if dynamic_dims:
        o.dynamic_symbols = [M, N, K]
        for s in (M, N, K):
            del o.subs[s]
    return gemm, o


def wg_gemm(mma, dtype=tkl.f16, dynamic=False):
    def build(d):
        return get_gemm_kernel((d["M"], d["N"], d["K"]), dynamic, mma, dtype)
    return build


def reordered_gemm(d):
    """templates/reordered_gemm.py get_reordered_matmul (testReorderedPingPongGemm: 128x256x64, GROUP_SIZE_M 16)."""
    GROUP_SIZE_M = tkl.sym.GROUP_SIZE_M
    constraints = [tkw.WorkgroupConstraint(M, BLOCK_M, 0), tkw.WorkgroupConstraint(N, BLOCK_N, 1),
                   tkw.TilingConstraint(K, BLOCK_K), tkw.WaveConstraint(M, sympy.floor(BLOCK_M / 4)),
                   tkw.WaveConstraint(N, sympy.floor(BLOCK_N / 2))]
    wg0, wg1 = WORKGROUP_0, WORKGROUP_1
    num_wg_0 = sympy.ceiling(M / BLOCK_M)
    num_wg_1 = sympy.ceiling(N / BLOCK_N)
    num_wgs_total = num_wg_0 * num_wg_1
    num_xcds = 8
    flat_wg_index = wg1 * num_wg_0 + wg0
    extra_wgs = num_wgs_total % num_xcds
    xcd_wg_index = ((flat_wg_index % num_xcds) * (num_wgs_total // num_xcds)
                    + sympy.Min(flat_wg_index % num_xcds, extra_wgs) + (flat_wg_index // num_xcds))
    num_wg_group = GROUP_SIZE_M * num_wg_1
    group_id = xcd_wg_index // num_wg_group
    first_wg_id_0 = group_id * GROUP_SIZE_M
    group_size_m = sympy.Max(1, sympy.Min(num_wg_0 - first_wg_id_0, GROUP_SIZE_M))
    new_wg0 = first_wg_id_0 + ((xcd_wg_index % num_wg_group) % group_size_m)
    new_wg1 = (xcd_wg_index % num_wg_group) // group_size_m
    constraints += [tkw.ReorderingConstraint(new_wg0, 0), tkw.ReorderingConstraint(new_wg1, 1)]
    constraints += [tkw.HardwareConstraint(threads_per_wave=64, mma_type=tkw.MMAType.F32_16x16x16_F16)]

    @tkw.wave(constraints)
    def gemm(a: tkl.Memory[M, K, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[N, K, ADDRESS_SPACE, tkl.f16],
             c: tkl.Memory[M, N, GLOBAL_ADDRESS_SPACE, tkl.f32]):
        c_reg = tkl.Register[M, N, tkl.f32](0.0)

        @tkw.iterate(K, init_args=[c_reg])
        def repeat(acc: tkl.Register[M, N, tkl.f32]) -> tkl.Register[M, N, tkl.f32]:
            a_reg = tkw.read(a)
            b_reg = tkw.read(b)
            acc = tkw.mma(a_reg, b_reg, acc)
            return acc

        tkw.write(tkw.cast(repeat, tkl.f32), c)
    subs = {M: d["M"], N: d["N"], K: d["K"], BLOCK_M: 128, BLOCK_N: 256, BLOCK_K: 64, GROUP_SIZE_M: 16,
            ADDRESS_SPACE: SHARED_ADDRESS_SPACE}
    return gemm, opts(subs)


def gemm_small_tiles(d):
    constraints = [tkw.WorkgroupConstraint(M, BLOCK_M, 0)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 1)]
    constraints += [tkw.TilingConstraint(K, BLOCK_K)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N)]
    constraints += [tkw.HardwareConstraint(threads_per_wave=64, mma_type=tkw.MMAType.F32_16x16x16_F16)]

    @tkw.wave(constraints)
    def gemm(a: tkl.Memory[M, K, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[N, K, ADDRESS_SPACE, tkl.f16],
             c: tkl.Memory[M, N, GLOBAL_ADDRESS_SPACE, tkl.f32]):
        c_reg = tkl.Register[M, N, tkl.f32](0.0)

        @tkw.iterate(K, init_args=[c_reg])
        def repeat(acc: tkl.Register[M, N, tkl.f32]) -> tkl.Register[M, N, tkl.f32]:
            a_reg = tkw.read(a, elements_per_thread=4)
            b_reg = tkw.read(b, elements_per_thread=4)
            acc = tkw.mma(a_reg, b_reg, acc)
            return acc

        tkw.write(repeat, c, elements_per_thread=4)
    return gemm, opts({M: d["M"], N: d["N"], K: d["K"], BLOCK_M: 8, BLOCK_N: 8, BLOCK_K: 8,
                       ADDRESS_SPACE: SHARED_ADDRESS_SPACE})


def batched_gemm_permute(d):
    constraints = [tkw.WorkgroupConstraint(M, BLOCK_M, 0)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 1)]
    constraints += [tkw.WorkgroupConstraint(B, BLOCK_B, 2)]
    constraints += [tkw.TilingConstraint(K, BLOCK_K)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M / 2)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N / 2)]
    constraints += [tkw.HardwareConstraint(threads_per_wave=64, waves_per_block=(2, 2, 1),
                                           mma_type=tkw.MMAType.F32_16x16x16_F16, vector_shapes={B: 0})]

    @tkw.wave(constraints)
    def batched_gemm(a: tkl.Memory[B, M, K, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[B, N, K, ADDRESS_SPACE, tkl.f16],
                     c: tkl.Memory[M, B, N, GLOBAL_ADDRESS_SPACE, tkl.f32]):
        c_reg = tkl.Register[B, M, N, tkl.f32](0.0)

        @tkw.iterate(K, init_args=[c_reg])
        def repeat(acc: tkl.Register[B, M, N, tkl.f32]) -> tkl.Register[B, M, N, tkl.f32]:
            a_reg = tkw.read(a, elements_per_thread=4)
            b_reg = tkw.read(b, elements_per_thread=4)
            acc = tkw.mma(a_reg, b_reg, acc)
            return acc

        res = tkw.permute(repeat, target_shape=[M, B, N])
        tkw.write(res, c, elements_per_thread=4)
    return batched_gemm, opts({B: d["B"], M: d["M"], N: d["N"], K: d["K"], BLOCK_B: 1, BLOCK_M: 32, BLOCK_N: 32,
                               BLOCK_K: 16, ADDRESS_SPACE: SHARED_ADDRESS_SPACE})


def sequential_batched_gemm(d):
    constraints = [tkw.WorkgroupConstraint(M, BLOCK_M, 0)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 1)]
    constraints += [tkw.TilingConstraint(K, BLOCK_K)]
    constraints += [tkw.TilingConstraint(B, BLOCK_B)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M / 2)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N / 2)]
    constraints += [tkw.HardwareConstraint(threads_per_wave=64, mma_type=tkw.MMAType.F32_16x16x16_F16,
                                           vector_shapes={B: 0})]

    @tkw.wave(constraints)
    def batched_gemm(a: tkl.Memory[B, M, K, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[B, N, K, ADDRESS_SPACE, tkl.f16],
                     c: tkl.Memory[B, M, N, GLOBAL_ADDRESS_SPACE, tkl.f32]):
        @tkw.iterate(B, init_args=[])
        def body():
            c_reg = tkl.Register[B, M, N, tkl.f32](0.0)

            @tkw.iterate(K, init_args=[c_reg])
            def repeat(acc: tkl.Register[B, M, N, tkl.f32]) -> tkl.Register[B, M, N, tkl.f32]:
                a_reg = tkw.read(a)
                b_reg = tkw.read(b)
                acc = tkw.mma(a_reg, b_reg, acc)
                return acc

            tkw.write(repeat, c)
    return batched_gemm, opts({B: d["B"], M: d["M"], N: d["N"], K: d["K"], BLOCK_B: 1, BLOCK_M: 64, BLOCK_N: 64,
                               BLOCK_K: 32, ADDRESS_SPACE: SHARED_ADDRESS_SPACE})


def splitk_gemm(d):
    """templates/gemm.py get_splitk_gemm_kernel."""
    K_PER_SPLIT = tkl.sym.K_PER_SPLIT
    K_SPLIT_OFF = tkl.sym.K_SPLIT_OFF
    K_SPLIT_LEN = tkl.sym.K_SPLIT_LEN
    constraints = [tkw.WorkgroupConstraint(M, BLOCK_M, 0)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 1)]
    constraints += [tkw.WorkgroupConstraint(S, BLOCK_S, 2)]
    constraints += [tkw.TilingConstraint(K, BLOCK_K, iters=sympy.ceiling(K_SPLIT_LEN / BLOCK_K), start=K_SPLIT_OFF)]
    constraints += [tkw.WaveConstraint(M, sympy.floor(BLOCK_M / 2))]
    constraints += [tkw.WaveConstraint(N, sympy.floor(BLOCK_N / 2))]
    constraints += [tkw.HardwareConstraint(threads_per_wave=64, mma_type=tkw.MMAType.F32_16x16x16_F16,
                                           vector_shapes={S: 0})]

    @tkw.wave(constraints)
    def splitk_gemm(a: tkl.Memory[M, K, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[N, K, ADDRESS_SPACE, tkl.f16],
                    c: tkl.Memory[M, N, GLOBAL_ADDRESS_SPACE, tkl.f32]):
        c_reg = tkl.Register[M, N, tkl.f32](0.0)

        @tkw.iterate(K, init_args=[c_reg])
        def repeat(acc: tkl.Register[M, N, tkl.f32]) -> tkl.Register[M, N, tkl.f32]:
            a_reg = tkw.read(a)
            b_reg = tkw.read(b)
            acc = tkw.mma(a_reg, b_reg, acc)
            return acc

        tkw.atomic_add(repeat, c)
    subs = {ADDRESS_SPACE: SHARED_ADDRESS_SPACE, BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, BLOCK_S: 1,
            M: d["M"], N: d["N"], K: d["K"], S: d["S"], K_PER_SPLIT: sympy.ceiling(K / S),
            K_SPLIT_OFF: WORKGROUP_2 * K_PER_SPLIT,
            K_SPLIT_LEN: sympy.Min(K, (WORKGROUP_2 + 1) * K_PER_SPLIT) - WORKGROUP_2 * K_PER_SPLIT}
    return splitk_gemm, opts(subs)


# ---- attention (tests/kernel/attention/vanilla_attention_test.py, templates/vanilla_attention.py) ----

def vanilla_attention(mfma_variants, is_causal=False):
    def build(d):
        shape = dict(num_query_heads=d.get("B", 8), query_seq_len=128, head_size_kv=128, head_size=64,
                     kv_seq_len=256)
        return get_vanilla_attention_kernel(shape, mfma_variants, False, is_causal)
    return build


def get_vanilla_attention_kernel(shape, mfma_variants, dynamic_dims, is_causal=False, sliding_window_size=-1):
    """Wave's templates/vanilla_attention.py get_vanilla_attention_kernel (non-transposed v)."""
    scale = 1.0 / math.sqrt(shape["head_size"])
    scale *= math.log2(math.e)
    K1, K2, BLOCK_K2 = tkl.sym.K1, tkl.sym.K2, tkl.sym.BLOCK_K2
    constraints = [tkw.WorkgroupConstraint(M, BLOCK_M, 0)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 1)]
    constraints += [tkw.WorkgroupConstraint(B, BLOCK_B, 2)]
    constraints += [tkw.TilingConstraint(K2, BLOCK_K2)]
    constraints += [tkw.WaveConstraint(M, sympy.ceiling(BLOCK_M / 4))]
    constraints += [tkw.WaveConstraint(N, BLOCK_N / 1)]
    Mvec, Nvec = (16, 16) if mfma_variants[1] == tkw.MMAType.F32_16x16x16_F16 else (32, 32)
    constraints += [tkw.HardwareConstraint(threads_per_wave=64, mma_type=mfma_variants[1],
                                           vector_shapes={B: 0, M: Mvec, N: Nvec})]
    i = tkw.IndexMapping.iterator(0)
    j = tkw.IndexMapping.iterator(1)
    k = tkw.IndexMapping.iterator(2)
    mapping = tkw.IndexMapping(num_iterators=3, inputs={B: i, N: j, M: k}, outputs={B: i, M: k, N: j})
    v_mapping = tkw.IndexMapping(num_iterators=3, inputs={B: i, N: j, K2: k}, outputs={B: i, N: j, K2: k})

    def base_attention_core(q, k, v, c):
        c_reg = tkl.Register[B, N, M, tkl.f32](0.0)
        init_sum = tkl.Register[B, M, tkl.f32](0.0)
        init_max = tkl.Register[B, M, tkl.f32](-1e6)
        sliding_window = tkl.Register[M, K2, tkl.i64](sliding_window_size)
        qk_scaling = tkl.Register[B, M, K2, tkl.f32](scale)
        ZEROF = tkl.Register[B, M, K2, tkl.f32](0.0)
        MIN_INF = tkl.Register[B, M, K2, tkl.f32](-1e6)

        @tkw.iterate(K2, init_args=[init_max, init_sum, c_reg])
        def repeat(partial_max: tkl.Register[B, M, tkl.f32], partial_sum: tkl.Register[B, M, tkl.f32],
                   acc: tkl.Register[B, N, M, tkl.f32]):
            imm_reg = tkl.Register[B, K2, M, tkl.f32](0.0)
            q_reg = tkw.read(q)
            k_reg = tkw.read(k)
            inner_acc = tkw.mma(k_reg, q_reg, imm_reg, mfma_variants[0])
            x_j = tkw.permute(inner_acc, target_shape=[B, M, K2])
            k2_index = tkw.self_index(K2, tkl.i64)
            mask = tkw.apply_expr(k2_index, lambda x: x < K2)
            mask = tkw.broadcast(mask, target_shape=[B, M, K2])
            if is_causal:
                m_index = tkw.self_index(M, tkl.i64)
                m_index = tkw.broadcast(m_index, target_shape=[B, M, K2])
                mask = (m_index >= k2_index) & mask
                if sliding_window_size > 0:
                    mask = (m_index - k2_index <= sliding_window) & mask
            mask = tkw.cast(mask, tkw.i1)
            bias = tkw.select(mask, ZEROF, MIN_INF)
            x_j = x_j + bias
            x_j *= qk_scaling
            m_j = tkw.max(x_j, partial_max, dim=K2)
            e_delta_max = tkw.exp2(partial_max - m_j)
            e_delta = tkw.exp2(x_j - m_j)
            e_init = partial_sum * e_delta_max
            d_j = tkw.sum(e_delta, e_init, dim=K2)
            imm_f16 = tkw.cast(e_delta, tkl.f16)
            v_reg = tkw.read(v, mapping=v_mapping)
            new_acc = acc * e_delta_max
            acc = tkw.mma(v_reg, imm_f16, new_acc, mfma_variants[1])
            return m_j, d_j, acc

        res_max, res_sum, res_mm = repeat
        reciprocal_sum = tkw.reciprocal(res_sum)
        res = res_mm * reciprocal_sum
        tkw.write(res, c, mapping=mapping)

    @tkw.wave(constraints)
    def base_attention(q: tkl.Memory[B, M, K1, GLOBAL_ADDRESS_SPACE, tkl.f16],
                       k: tkl.Memory[B, K2, K1, ADDRESS_SPACE, tkl.f16],
                       v: tkl.Memory[B, K2, N, ADDRESS_SPACE, tkl.f16],
                       c: tkl.Memory[B, M, N, GLOBAL_ADDRESS_SPACE, tkl.f32]):
        base_attention_core(q, k, v, c)

    hyperparams = {ADDRESS_SPACE: SHARED_ADDRESS_SPACE, BLOCK_B: 1, BLOCK_M: 128, BLOCK_N: 64, BLOCK_K2: 64,
                   B: shape["num_query_heads"], M: shape["query_seq_len"], N: shape["head_size_kv"],
                   K1: shape["head_size"], K2: shape["kv_seq_len"]}
    return base_attention, opts(hyperparams)


CASES = [
    ("copy.json", copy),
    ("dynamic_copy.json", dynamic_copy),
    ("vector_add.json", vector_add),
    ("cast.json", cast),
    ("broadcast_scaled_add.json", broadcast_scaled_add),
    ("read_write_same.json", read_write_same),
    ("transpose_read.json", transpose_read),
    ("transpose_write.json", transpose_write),
    ("offset_read.json", offset_read),
    ("scalar_codegen_f32.json", scalar_codegen_f32),
    ("conditional.json", conditional),
    ("conditional_return.json", conditional_return),
    ("set_symbol.json", set_symbol),
    ("apply_expr.json", apply_expr),
    ("atomic_add_no_map.json", atomic_add_no_map),
    ("reduce_sum.json", reduce_sum),
    ("block_reduce_sum.json", block_reduce_sum),
    ("fused_softmax.json", fused_softmax),
    ("toy_online_softmax.json", toy_online_softmax),
    ("wg_gemm_16x16x16.json", wg_gemm(tkw.MMAType.F32_16x16x16_F16)),
    ("wg_gemm_32x32x8.json", wg_gemm(tkw.MMAType.F32_32x32x8_F16)),
    ("wg_gemm_bf16_16x16x16.json", wg_gemm(tkw.MMAType.F32_16x16x16_F16, tkl.bf16)),
    ("wg_gemm_dyn_16x16x16.json", wg_gemm(tkw.MMAType.F32_16x16x16_F16, dynamic=True)),
    ("gemm_small_tiles_16x16x16.json", gemm_small_tiles),
    ("batched_gemm_permute.json", batched_gemm_permute),
    ("sequential_batched_gemm.json", sequential_batched_gemm),
    ("splitk_gemm.json", splitk_gemm),
    ("reordered_gemm.json", reordered_gemm),
    ("vanilla_attention_16x16x16.json", vanilla_attention((tkw.MMAType.F32_16x16x16_F16,) * 2)),
    ("vanilla_attention_32x32x8.json", vanilla_attention((tkw.MMAType.F32_32x32x8_F16,) * 2)),
]


def tests():
    only = os.environ.get("WAVECC_PY_ONLY")
    return [(name, (lambda n=name, b=build: check(n, b))) for name, build in CASES if not only or only in name]
