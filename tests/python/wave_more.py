"""wave_more.py — more of Wave's tests and examples (iree-org/wave tests/kernel/e2e/*.py, tests/kernel/*_test.py,
examples/python/*.py) transcribed as a numpy user runs them with wavecc: `wave_lang` imports become
`wavecc.wave_lang`, torch tensors become numpy arrays made by Wave's torch_utils helpers, torch's references numpy
ones; kernels, constraints, mappings, hyperparameters and options are Wave's, written as Wave writes them. Each test
runs one of Wave's parameters at a small shape in tests() (run_tests.py fast), more in slow_tests() (full).
`python3 tests/python/wave_more.py TEXT` runs the tests whose names contain TEXT."""
import sys

import numpy as np
import sympy

import wavecc.wave_lang.kernel.lang as tkl
import wavecc.wave_lang.kernel.wave as tkw
from wavecc.wave_lang.kernel.lang.global_symbols import *  # noqa: F401,F403
from wavecc.wave_lang.kernel.lang.global_symbols import GLOBAL_ADDRESS_SPACE
from wavecc.wave_lang.kernel.wave.compile import WaveCompileOptions, wave_compile
from wavecc.wave_lang.kernel.wave.utils.run_utils import set_default_run_config
from wavecc.wave_lang.kernel.wave.utils.torch_utils import (
    device_arange, device_ones, device_randint, device_randn, device_randperm, device_zeros, device_full)
from wavecc.wave_lang.kernel.wave.utils.general_utils import ceildiv, get_default_scheduling_params

from wavecc.wave_lang.kernel.wave.constraints import MMAType
from wavecc.wave_lang.kernel.wave.scheduling.schedule import SchedulingType

from wave_e2e import assert_close, _case, TMP

# ---- tests/kernel/e2e/test_elementwise.py ----


def test_cast(shape, run_bench=False):
    M = tkl.sym.M
    N = tkl.sym.N
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    wave_size = 64
    BLOCK_M = 1
    BLOCK_N = sympy.Max(sympy.Min(shape[1], 256), wave_size)

    constraints: list[tkw.Constraint] = [
        tkw.HardwareConstraint(threads_per_wave=wave_size, vector_shapes={M: BLOCK_M, N: BLOCK_N})
    ]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M, 1)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 0)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N)]

    @tkw.wave(constraints)
    def test(
        a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32],
        b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
    ):
        res = tkw.read(a)
        res = tkw.cast(res, tkl.f16)
        tkw.write(res, b)

    a = device_randn(shape, dtype=np.float32)
    b = device_zeros(shape, dtype=np.float16)
    options = WaveCompileOptions(
        subs={M: shape[0], N: shape[1], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE},
        canonicalize=True,
        run_bench=run_bench,
    )
    options = set_default_run_config(options)
    test = wave_compile(options, test)
    test(a, b)
    assert_close(a.astype(np.float16), b)


def test_vector_add(shape, use_buffer_ops, run_bench=False):
    M = tkl.sym.M
    N = tkl.sym.N
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    wave_size = 64
    BLOCK_M = 1
    BLOCK_N = sympy.Max(sympy.Min(shape[1], 256), wave_size)

    constraints: list[tkw.Constraint] = [
        tkw.HardwareConstraint(threads_per_wave=wave_size, vector_shapes={M: BLOCK_M, N: BLOCK_N})
    ]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M, 1)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 0)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N)]

    @tkw.wave(constraints)
    def test(
        a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
        b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
        c: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
    ):
        lhs = tkw.read(a)
        rhs = tkw.read(b)
        res = lhs + rhs
        tkw.write(res, c)

    a = device_randn(shape, dtype=np.float16)
    b = device_randn(shape, dtype=np.float16)
    c = device_zeros(shape, dtype=np.float16)
    ref = a + b
    options = WaveCompileOptions(
        subs={M: shape[0], N: shape[1], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE},
        canonicalize=True,
        run_bench=run_bench,
        use_buffer_ops=use_buffer_ops,
    )
    options = set_default_run_config(options)
    test = wave_compile(options, test)
    test(a, b, c)
    assert_close(ref, c)


def test_broadcast_scaled_add(shape, run_bench=False):
    from wavecc.wave_lang.kernel.wave.templates.test_kernels import get_broadcast_scaled_add
    broadcast_scaled_add, hyperparams = get_broadcast_scaled_add(shape)
    scaled_shape = list(shape)
    scaled_shape[-1] = int(scaled_shape[-1] / 2)
    scaled_shape = tuple(scaled_shape)
    a = device_randn(scaled_shape, dtype=np.float16)
    b = device_randn((scaled_shape[0]), dtype=np.float16)
    c = device_zeros(scaled_shape, dtype=np.float16)
    ref = a + b.reshape(-1, 1)
    options = WaveCompileOptions(subs=hyperparams, canonicalize=True, run_bench=run_bench, use_buffer_ops=True)
    options = set_default_run_config(options)
    test = wave_compile(options, broadcast_scaled_add)
    test(a, b, c)
    assert_close(ref, c)


# ---- tests/kernel/e2e/test_memory_ops.py ----

def _row_kernel_constraints(shape, M, N, wave_size=64, block_n=None):
    BLOCK_M = 1
    BLOCK_N = block_n if block_n is not None else sympy.Max(sympy.Min(shape[1], 256), wave_size)
    constraints: list[tkw.Constraint] = [
        tkw.HardwareConstraint(threads_per_wave=wave_size, vector_shapes={M: BLOCK_M, N: BLOCK_N})
    ]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M, 1)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 0)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N)]
    return constraints


def test_read_write_same(shape, use_buffer_ops, run_bench=False):
    M = tkl.sym.M
    N = tkl.sym.N
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    constraints = _row_kernel_constraints(shape, M, N)

    @tkw.wave(constraints)
    def double(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16]):
        res = tkw.read(a)
        double = res + res
        tkw.write(double, a)

    a = device_randn(shape, dtype=np.float16)
    ref = a + a
    options = WaveCompileOptions(
        subs={M: shape[0], N: shape[1], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE},
        canonicalize=True,
        run_bench=run_bench,
        use_buffer_ops=use_buffer_ops,
    )
    options = set_default_run_config(options)
    double = wave_compile(options, double)
    double(a)
    assert_close(a, ref)


def test_offset_read(shape, use_buffer_ops, run_bench=False):
    M = tkl.sym.M
    N = tkl.sym.N
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    constraints = _row_kernel_constraints(shape, M, N)

    i = tkw.IndexMapping.iterator(0)
    j = tkw.IndexMapping.iterator(1)
    k = tkw.IndexMapping.dynamic_val(0)
    mapping = tkw.IndexMapping(
        num_iterators=2,
        inputs={M: k, N: j},
        outputs={M: i, N: j},
        dynamic_val_mappings={M: i, N: j},
    )

    @tkw.wave(constraints)
    def test(
        a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
        off: tkl.Memory[M, N, ADDRESS_SPACE, tkl.i32],
        b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
    ):
        offset = tkw.read(off)
        res = tkw.read(a, mapping=mapping, mapping_dynamic_vals=(offset,))
        tkw.write(res, b)

    a = device_randn(shape, dtype=np.float16)
    off = device_randint(shape[0], shape, dtype=np.int32)
    out = device_zeros(shape, dtype=np.float16)
    options = WaveCompileOptions(
        subs={M: shape[0], N: shape[1], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE},
        canonicalize=True,
        run_bench=run_bench,
        use_buffer_ops=use_buffer_ops,
    )
    options = set_default_run_config(options)
    test = wave_compile(options, test)
    test(a, off, out)
    out_ref = np.take_along_axis(a, off.astype(np.int64), axis=0)
    assert_close(out, out_ref)


# ---- tests/kernel/e2e/test_misc_ops.py ----

def test_set_symbol(shape, run_bench=False):
    M = tkl.sym.M
    N = tkl.sym.N
    S = tkl.sym.S
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    wave_size = 64
    BLOCK_M = 1
    BLOCK_N = wave_size

    constraints: list[tkw.Constraint] = [
        tkw.HardwareConstraint(threads_per_wave=wave_size, vector_shapes={M: BLOCK_M, N: BLOCK_N, S: BLOCK_M})
    ]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M, 1)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 0)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N)]

    i = tkw.IndexMapping.iterator(0)
    j = tkw.IndexMapping.iterator(1)
    mapping = tkw.IndexMapping(num_iterators=2, inputs={S: S, N: j}, outputs={S: i, N: j})

    dynamic_symbols = []
    dynamic_symbols.append(S)

    @tkw.wave(constraints)
    def test(
        a: tkl.Memory[S, N, ADDRESS_SPACE, tkl.f16],
        off: tkl.Memory[M, N, ADDRESS_SPACE, tkl.i32],
        b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
    ):
        offset = tkw.read(off)
        tkw.set_symbol(S, offset)
        res = tkw.read(a, mapping=mapping)
        tkw.write(res, b)

    a = device_randn(shape, dtype=np.float16)
    off = device_randint(shape[0], shape, dtype=np.int32)
    out = device_zeros(shape, dtype=np.float16)
    options = WaveCompileOptions(
        subs={M: shape[0], N: shape[1], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE},
        canonicalize=True,
        run_bench=run_bench,
        dynamic_symbols=dynamic_symbols,
    )
    options = set_default_run_config(options)
    test = wave_compile(options, test)
    test(a, off, out)
    out_ref = np.take_along_axis(a, off.astype(np.int64), axis=0)
    assert_close(out, out_ref)


def test_apply_expr(shape, run_bench=False):
    M = tkl.sym.M
    N = tkl.sym.N
    S = tkl.sym.S
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    wave_size = 64
    BLOCK_M = 1
    BLOCK_N = wave_size

    constraints: list[tkw.Constraint] = [
        tkw.HardwareConstraint(threads_per_wave=wave_size, vector_shapes={M: BLOCK_M, N: BLOCK_N, S: BLOCK_M})
    ]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M, 1)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 0)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N)]

    i = tkw.IndexMapping.iterator(0)
    j = tkw.IndexMapping.iterator(1)
    mapping = tkw.IndexMapping(num_iterators=2, inputs={S: S, N: j}, outputs={S: i, N: j})
    dynamic_symbols = [S]

    @tkw.wave(constraints)
    def test(
        a: tkl.Memory[S, N, ADDRESS_SPACE, tkl.f16],
        off: tkl.Memory[M, N, ADDRESS_SPACE, tkl.i32],
        b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
    ):
        offset = tkw.read(off)
        offset = tkw.apply_expr(offset, lambda a: M - a - 1)
        tkw.set_symbol(S, offset)
        res = tkw.read(a, mapping=mapping)
        tkw.write(res, b)

    a = device_randn(shape, dtype=np.float16)
    off = device_randint(shape[0], shape, dtype=np.int32)
    out = device_zeros(shape, dtype=np.float16)
    options = WaveCompileOptions(
        subs={M: shape[0], N: shape[1], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE},
        canonicalize=True,
        run_bench=run_bench,
        dynamic_symbols=dynamic_symbols,
    )
    options = set_default_run_config(options)
    test = wave_compile(options, test)
    test(a, off, out)
    out_ref = np.take_along_axis(a, (shape[0] - off - 1).astype(np.int64), axis=0)
    assert_close(out, out_ref)


def test_conditional(shape, run_bench=False):
    M = tkl.sym.M
    N = tkl.sym.N
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    constraints = _row_kernel_constraints(shape, M, N, block_n=64)

    @tkw.wave(constraints)
    def test(
        a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
        mask: tkl.Memory[M, N, ADDRESS_SPACE, tkl.i32],
        b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
    ):
        res = tkw.read(a)
        cond = tkw.read(mask)
        cond = tkw.apply_expr(cond, lambda a: a > 0)

        @tkw.conditional(cond)
        def then():
            tkw.write(res, b)

    a = device_randn(shape, dtype=np.float16)
    mask = device_randint(2, shape, dtype=np.int32)
    b = device_zeros(shape, dtype=np.float16)
    options = WaveCompileOptions(
        subs={M: shape[0], N: shape[1], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE},
        canonicalize=True,
        run_bench=run_bench,
    )
    options = set_default_run_config(options)
    test = wave_compile(options, test)
    test(a, mask, b)
    assert_close(a * mask, b, check_dtype=False)


def test_conditional_return(shape, threshold, run_bench=False):
    M = tkl.sym.M
    N = tkl.sym.N
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    LOAD_ELEMS_PER_THREAD = tkl.sym.LOAD_ELEMS_PER_THREAD
    STORE_ELEMS_PER_THREAD = tkl.sym.STORE_ELEMS_PER_THREAD
    constraints = _row_kernel_constraints(shape, M, N)

    @tkw.wave(constraints)
    def test(
        a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
        b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
        threshold: tkl.i32,
    ):
        zero_reg = tkl.Register[M, N, tkl.f32](0.0)  # noqa: F841
        threshold_scalar = tkw.scalar(10, tkl.i32)
        a_reg = tkw.read(a, elements_per_thread=LOAD_ELEMS_PER_THREAD)

        @tkw.conditional(threshold > threshold_scalar, else_return=[a_reg])
        def process_data(
            a: tkl.Register[M, N, tkl.f32],
        ) -> tkl.Register[M, N, tkl.f32]:
            return a * tkw.scalar(2.5, tkl.f16)

        tkw.write(process_data, b, elements_per_thread=STORE_ELEMS_PER_THREAD)

    a = device_randn(shape, dtype=np.float16)
    b = device_zeros(shape, dtype=np.float16)
    options = WaveCompileOptions(
        subs={M: shape[0], N: shape[1], LOAD_ELEMS_PER_THREAD: 4, STORE_ELEMS_PER_THREAD: 4,
              ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE},
        canonicalize=True,
        run_bench=run_bench,
    )
    options = set_default_run_config(options)
    test = wave_compile(options, test)
    test(a, b, threshold)
    if threshold > 10:
        expected = a * np.float16(2.5)
    else:
        expected = a
    assert_close(expected, b)


# ---- tests/kernel/e2e/test_reductions.py ----

def test_reduce_sum(shape, run_bench=False, threads_per_wave=64):
    M = tkl.sym.M
    N = tkl.sym.N
    wave_size = 64
    BLOCK_M = 1
    BLOCK_N = sympy.ceiling(N / wave_size) * wave_size
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE

    constraints: list[tkw.Constraint] = [
        tkw.HardwareConstraint(threads_per_wave=threads_per_wave, vector_shapes={M: 1, N: BLOCK_N})
    ]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M, 1)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 0)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N)]

    @tkw.wave(constraints)
    def test(
        a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
        b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
        c: tkl.Memory[M, ADDRESS_SPACE, tkl.f16],
    ):
        lhs = tkw.read(a)
        rhs = tkw.read(b)
        res = lhs * rhs
        res = tkw.sum(res, dim=N)
        tkw.write(res, c)

    np.random.seed(1)
    a = device_randn(shape, dtype=np.float16)
    b = device_randn(shape, dtype=np.float16)
    c = device_zeros((shape[0],), dtype=np.float16)
    ref = np.sum((a * b), axis=-1)
    options = WaveCompileOptions(
        subs={M: shape[0], N: shape[1], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE},
        canonicalize=True,
        run_bench=run_bench,
    )
    options = set_default_run_config(options)
    test = wave_compile(options, test)
    test(a, b, c)
    assert_close(ref, c, atol=0.1, rtol=1e-05)


def test_block_reduce_sum(shape, run_bench=False, threads_per_wave=64):
    round_to_divisible = lambda src, denom: sympy.ceiling(src / denom) * denom  # noqa: E731
    M = tkl.sym.M
    N = tkl.sym.N
    wave_size = threads_per_wave
    num_waves = 4
    BLOCK_M = 1
    ELEMS_PER_WAVE = round_to_divisible(sympy.ceiling(N / num_waves), wave_size)
    ELEMS_PER_WAVE = sympy.Max(ELEMS_PER_WAVE, wave_size)
    BLOCK_N = ELEMS_PER_WAVE * num_waves
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE

    constraints: list[tkw.Constraint] = [
        tkw.HardwareConstraint(threads_per_wave=wave_size, vector_shapes={M: 1, N: ELEMS_PER_WAVE})
    ]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M, 1)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 0)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M)]
    constraints += [tkw.WaveConstraint(N, ELEMS_PER_WAVE)]

    @tkw.wave(constraints)
    def test(
        a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32],
        b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32],
        c: tkl.Memory[M, ADDRESS_SPACE, tkl.f32],
    ):
        lhs = tkw.read(a)
        rhs = tkw.read(b)
        res = lhs * rhs
        res = tkw.sum(res, dim=N, block=True)
        tkw.write(res, c)

    np.random.seed(1)
    a = device_randn(shape, dtype=np.float32)
    b = device_randn(shape, dtype=np.float32)
    c = device_zeros((shape[0],), dtype=np.float32)
    ref = np.sum((a * b), axis=-1)
    options = WaveCompileOptions(
        subs={M: shape[0], N: shape[1], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE},
        canonicalize=True,
        run_bench=run_bench,
    )
    options = set_default_run_config(options)
    test = wave_compile(options, test)
    test(a, b, c)
    assert_close(ref, c, atol=2e-5, rtol=1e-05)


def test_toy_online_softmax(shape, threads_per_wave=64):
    M = tkl.sym.M
    N = tkl.sym.N
    BLOCK_M = 1
    BLOCK_N = tkl.sym.BLOCK_N
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE

    constraints: list[tkw.Constraint] = [
        tkw.HardwareConstraint(threads_per_wave=threads_per_wave, vector_shapes={M: 1, N: BLOCK_N})
    ]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M, 1)]
    constraints += [tkw.TilingConstraint(N, BLOCK_N)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M)]

    @tkw.wave(constraints)
    def test(
        a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32],
        b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32],
        c: tkl.Memory[M, ADDRESS_SPACE, tkl.f32],
    ):
        init_max = tkl.Register[M, tkl.f32](-1e6)
        init_sum = tkl.Register[M, tkl.f32](0)

        @tkw.iterate(N, init_args=[init_max, init_sum])
        def repeat(
            partial_max: tkl.Register[M, tkl.f32],
            partial_sum: tkl.Register[M, tkl.f32],
        ) -> tkl.Register[M, tkl.f32]:
            lhs = tkw.read(a)
            rhs = tkw.read(b)
            res = lhs * rhs
            partial_max = tkw.max(res, partial_max, dim=N)
            partial_sum = tkw.sum(res, partial_sum, dim=N)
            return partial_max, partial_sum

        res_max, res_sum = repeat
        result = res_max / res_sum
        tkw.write(result, c)

    np.random.seed(1)
    a = device_randn(shape, dtype=np.float32)
    b = device_randn(shape, dtype=np.float32)
    c = device_zeros((shape[0],), dtype=np.float32)
    ref_max = np.max((a * b), axis=-1)
    ref_sum = np.sum((a * b), axis=-1)
    ref = ref_max / ref_sum
    options = WaveCompileOptions(
        subs={M: shape[0], N: shape[1], BLOCK_N: max(min(128, shape[1]), threads_per_wave),
              ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE},
        canonicalize=True,
        run_bench=False,
    )
    options = set_default_run_config(options)
    test = wave_compile(options, test)
    test(a, b, c)
    assert_close(ref, c, atol=0.1, rtol=1e-4)


# ---- tests/kernel/e2e/test_scalar.py ----

def test_scalar_codegen(shape, tkl_dtype, torch_dtype, arg_vals, use_wave_runtime, run_bench=False):
    M = tkl.sym.M
    N = tkl.sym.N
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    constraints = _row_kernel_constraints(shape, M, N)

    @tkw.wave(constraints)
    def test(
        a: tkl.Memory[M, N, ADDRESS_SPACE, tkl_dtype],
        c: tkl_dtype,  # type: ignore
        d: tkl_dtype,  # type: ignore
        b: tkl.Memory[M, N, ADDRESS_SPACE, tkl_dtype],
    ):
        res = tkw.read(a)
        c = tkw.broadcast(c, target_shape=[M, N])
        d = tkw.broadcast(d, target_shape=[M, N])
        e = tkl.Register[M, N, tkl_dtype](arg_vals[2]) * c
        res = res + e + d
        tkw.write(res, b)

    a = device_zeros(shape, dtype=torch_dtype)
    b = device_zeros(shape, dtype=torch_dtype)
    scalar_c = arg_vals[0]
    scalar_d = arg_vals[1]
    options = WaveCompileOptions(
        subs={M: shape[0], N: shape[1], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE},
        canonicalize=True,
        run_bench=run_bench,
        wave_runtime=use_wave_runtime,
    )
    options = set_default_run_config(options)
    test = wave_compile(options, test)
    test(a, scalar_c, scalar_d, b)
    expected_val = np.full_like(b, arg_vals[3])
    assert_close(b, expected_val)


# ---- tests/kernel/e2e/test_transpose.py ----

def test_transpose_read(shape, use_buffer_ops, run_bench=False):
    shape = shape[::-1]
    M = tkl.sym.M
    N = tkl.sym.N
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    wave_size = 64
    BLOCK_N = 1
    BLOCK_M = sympy.Max(sympy.Min(M, 256), wave_size)

    constraints: list[tkw.Constraint] = [
        tkw.HardwareConstraint(threads_per_wave=wave_size, vector_shapes={N: BLOCK_N, M: BLOCK_M})
    ]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 1)]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M, 0)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M)]

    i = tkw.IndexMapping.iterator(0)
    j = tkw.IndexMapping.iterator(1)
    mapping = tkw.IndexMapping(num_iterators=2, inputs={N: i, M: j}, outputs={N: i, M: j})

    @tkw.wave(constraints)
    def test(
        a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
        b: tkl.Memory[N, M, ADDRESS_SPACE, tkl.f16],
    ):
        res = tkw.read(a, mapping=mapping)
        tkw.write(res, b)

    a = device_randn(shape, dtype=np.float16)
    b = device_zeros(shape[::-1], dtype=np.float16)
    options = WaveCompileOptions(
        subs={M: shape[0], N: shape[1], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE},
        canonicalize=True,
        run_bench=run_bench,
        use_buffer_ops=use_buffer_ops,
    )
    options = set_default_run_config(options)
    test = wave_compile(options, test)
    test(a, b)
    assert_close(a.T, b)


def test_transpose_write(shape, use_buffer_ops, run_bench=False):
    M = tkl.sym.M
    N = tkl.sym.N
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    wave_size = 64
    BLOCK_M = 1
    BLOCK_N = sympy.Max(sympy.Min(N, 256), wave_size)

    constraints: list[tkw.Constraint] = [
        tkw.HardwareConstraint(threads_per_wave=wave_size, vector_shapes={M: BLOCK_M, N: BLOCK_N})
    ]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M, 1)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 0)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N)]

    i = tkw.IndexMapping.iterator(0)
    j = tkw.IndexMapping.iterator(1)
    mapping = tkw.IndexMapping(num_iterators=2, inputs={M: i, N: j}, outputs={M: i, N: j})

    @tkw.wave(constraints)
    def test(
        a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
        b: tkl.Memory[N, M, ADDRESS_SPACE, tkl.f16],
    ):
        res = tkw.read(a)
        tkw.write(res, b, mapping=mapping)

    a = device_randn(shape, dtype=np.float16)
    b = device_zeros(shape[::-1], dtype=np.float16)
    options = WaveCompileOptions(
        subs={M: shape[0], N: shape[1], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE},
        canonicalize=True,
        run_bench=run_bench,
        use_buffer_ops=use_buffer_ops,
    )
    options = set_default_run_config(options)
    test = wave_compile(options, test)
    test(a, b)
    assert_close(a.T, b)


# ---- tests/kernel/e2e/test_atomic.py ----

def test_no_map_atomic_add():
    M = tkl.sym.M
    B = tkl.sym.B
    BLOCK_M = tkl.sym.BLOCK_M
    BLOCK_B = tkl.sym.BLOCK_B
    LOAD_ELEMS_PER_THREAD = tkl.sym.LOAD_ELEMS_PER_THREAD
    STORE_ELEMS_PER_THREAD = tkl.sym.STORE_ELEMS_PER_THREAD
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    ADDRESS_SPACE_0 = tkl.sym.ADDRESS_SPACE_0
    LIMIT_VAL = tkl.sym.LIMIT_VAL

    constraints: list[tkw.Constraint] = [
        tkw.HardwareConstraint(threads_per_wave=64, waves_per_block=(1, 1, 1),
                               vector_shapes={B: 0, M: 64, LIMIT_VAL: 0})
    ]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M, 0)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M)]
    constraints += [tkw.TilingConstraint(B)]

    @tkw.wave(constraints)
    def atomic_add_one(
        a: tkl.Memory[M, ADDRESS_SPACE, tkl.i32],
        c: tkl.Memory[M, ADDRESS_SPACE_0, tkl.i32],
    ):
        one_reg = tkw.Register[M, tkl.i32](1)
        res = tkw.atomic_add(one_reg, a)
        tkw.write(res, c)

    options = WaveCompileOptions(
        subs={M: 64, B: 10, BLOCK_M: 64, BLOCK_B: 1, LOAD_ELEMS_PER_THREAD: 4, STORE_ELEMS_PER_THREAD: 4,
              ADDRESS_SPACE: SHARED_ADDRESS_SPACE, ADDRESS_SPACE_0: GLOBAL_ADDRESS_SPACE},
        canonicalize=True,
    )
    options = set_default_run_config(options)
    atomic_add_one = wave_compile(options, atomic_add_one)
    a = np.random.randint(0, 10, (64,)).astype(np.int32)
    c = np.zeros((64,), dtype=np.int32)
    a_expected = a.copy() + 1
    a_original = a.copy()
    atomic_add_one(a, c)
    assert np.array_equal(c, a_original)
    assert np.array_equal(a, a_expected)


def test_dyn_atomic_add(shape):
    from wavecc.wave_lang.kernel.wave.utils.general_utils import torch_dtype_to_wave
    NUMEL = tkl.sym.NUMEL
    NUM_EXPERTS = tkl.sym.NUM_EXPERTS
    constraints: list[tkw.Constraint] = []
    constraints += [tkw.WorkgroupConstraint(NUMEL, NUMEL, 0)]
    constraints += [tkw.WorkgroupConstraint(NUM_EXPERTS, NUM_EXPERTS, 1)]
    constraints += [tkw.WaveConstraint(NUMEL, NUMEL)]
    constraints += [tkw.WaveConstraint(NUM_EXPERTS, NUM_EXPERTS)]
    constraints += [
        tkw.HardwareConstraint(threads_per_wave=64, waves_per_block=(1, 1, 1),
                               vector_shapes={NUMEL: NUMEL, NUM_EXPERTS: NUM_EXPERTS})
    ]
    i = tkw.IndexMapping.iterator(0)
    d0 = tkw.IndexMapping.dynamic_val(0)
    histogram_read = tkw.IndexMapping(
        num_iterators=1,
        inputs={NUM_EXPERTS: d0},
        outputs={NUM_EXPERTS: i},
        dynamic_val_mappings={NUM_EXPERTS: i},
    )
    tdtype = np.int32
    dtype = torch_dtype_to_wave(tdtype)

    @tkw.wave(constraints)
    def create_histogram(
        indices: tkl.Memory[NUMEL, tkl.global_symbols.GLOBAL_ADDRESS_SPACE, dtype],
        experts: tkl.Memory[NUM_EXPERTS, tkl.global_symbols.GLOBAL_ADDRESS_SPACE, dtype],
    ):
        zero_vec = tkl.Register[NUM_EXPERTS, dtype](0)
        one_vec = tkw.Register[NUM_EXPERTS, dtype](1)
        idx = tkw.read(indices, elements_per_thread=1)
        shmem = tkw.allocate(shape=(NUM_EXPERTS,), distributed_shape=(NUM_EXPERTS,), dtype=dtype)
        tkw.write(zero_vec, shmem)
        tkw.atomic_add(one_vec, shmem, mapping=histogram_read, mapping_dynamic_vals=(idx,), elements_per_thread=1)
        counts = tkw.read(shmem)
        tkw.write(counts, experts)

    num_indices = shape[0]
    num_experts = shape[1]
    indices = device_randint(0, num_experts, (num_indices,), dtype=np.int32)
    experts = device_zeros((num_experts,), dtype=np.int32)
    hyperparams = {NUMEL: num_indices, NUM_EXPERTS: num_experts}
    options = WaveCompileOptions(subs=hyperparams, minimize_shared_allocs=False)
    options = set_default_run_config(options)
    compiled_fn = wave_compile(options, create_histogram)
    compiled_fn(indices, experts)
    expected_experts = np.bincount(indices, minlength=num_experts).astype(tdtype)
    assert_close(experts, expected_experts)
    assert experts.sum() == num_indices


# ---- tests/kernel/e2e/test_bounds_check.py ----

def test_bound_check_failure(shape, run_bench=False):
    M = tkl.sym.M
    N = tkl.sym.N
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    constraints = _row_kernel_constraints(shape, M, N)
    i = tkw.IndexMapping.iterator(0)
    j = tkw.IndexMapping.iterator(1)
    mapping = tkw.IndexMapping(num_iterators=2, inputs={M: i + 1024, N: j}, outputs={M: i, N: j})

    @tkw.wave(constraints)
    def test(
        a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
        b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
    ):
        res = tkw.read(a, mapping=mapping)
        tkw.write(res, b)

    a = device_randn(shape, dtype=np.float16)
    b = device_zeros(shape, dtype=np.float16)
    options = WaveCompileOptions(
        subs={M: shape[0], N: shape[1], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE},
        canonicalize=True,
        run_bench=run_bench,
        use_bound_check=True,
    )
    options = set_default_run_config(options)
    test = wave_compile(options, test)
    # Wave traps here (and skips the test: a trap cannot be recovered from); wavecc accepts use_bound_check and,
    # as its format defines reads at coordinates past a dim, reads 0 there (docs/python.md, "Not supported")
    test(a, b)
    assert_close(b, np.zeros_like(b))


# ---- examples/python/2_control_flow.py ----

def test_iteration_with_condition(is_debug=False):
    M = tkl.sym.M
    I = tkl.sym.I  # noqa: E741
    BLOCK_M = tkl.sym.BLOCK_M
    LOAD_ELEMS_PER_THREAD = tkl.sym.LOAD_ELEMS_PER_THREAD
    STORE_ELEMS_PER_THREAD = tkl.sym.STORE_ELEMS_PER_THREAD
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    ADDRESS_SPACE_0 = tkl.sym.ADDRESS_SPACE_0
    LIMIT_VAL = tkl.sym.LIMIT_VAL
    constraints: list[tkw.Constraint] = [
        tkw.HardwareConstraint(threads_per_wave=64, waves_per_block=(1, 1, 1), vector_shapes={I: 0, M: 64})
    ]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M, 0)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M)]
    constraints += [tkw.TilingConstraint(I)]

    @tkw.wave(constraints)
    def wave_kernel(
        init_value: tkl.i32,  # type: ignore
        c: tkl.Memory[M, ADDRESS_SPACE_0, tkl.i32],
        limit: tkl.i32,  # type: ignore
    ):
        tkw.set_symbol(LIMIT_VAL, limit)
        condition = I < LIMIT_VAL

        @tkw.iterate(I, start=init_value, condition=condition, init_args=[])
        def body():
            c_reg = tkw.read(c)
            c_reg = c_reg + tkw.Register[M, tkl.i32](1)
            tkw.write(c_reg, c)
            index_b = tkw.self_index(I, tkl.i32)
            next_value = tkw.apply_expr(index_b, lambda x: x + 1)
            tkw.set_symbol(I, next_value)

    options = WaveCompileOptions(
        subs={M: 64, BLOCK_M: 64, LOAD_ELEMS_PER_THREAD: 4, STORE_ELEMS_PER_THREAD: 4,
              ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE, ADDRESS_SPACE_0: GLOBAL_ADDRESS_SPACE},
        canonicalize=True,
        print_ir_after="all" if is_debug else [],
    )
    wave_kernel = wave_compile(options, wave_kernel)
    if is_debug:
        print(wave_kernel.asm)
    init_value = 1
    c = np.zeros((64,), dtype=np.int32)
    limit = 4
    wave_kernel(init_value, c, limit)
    assert (c == limit - init_value).all(), c


# ---- examples/python/4_reductions.py ----

def test_example_reduce_sum(is_debug=False):
    shape = (64, 128)
    M = tkl.sym.M
    N = tkl.sym.N
    wave_size = 64
    BLOCK_M = 1
    BLOCK_N = sympy.ceiling(N / wave_size) * wave_size
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    constraints: list[tkw.Constraint] = [tkw.HardwareConstraint(threads_per_wave=64, vector_shapes={M: 1, N: BLOCK_N})]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M, 1)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 0)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N)]

    @tkw.wave(constraints)
    def test(
        a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
        c: tkl.Memory[M, ADDRESS_SPACE, tkl.f16],
    ):
        res = tkw.read(a)
        res = tkw.sum(res, dim=N)
        tkw.write(res, c)

    np.random.seed(1)
    a = np.random.randn(*shape).astype(np.float16)
    c = np.zeros((shape[0],), dtype=np.float16)
    ref = np.sum(a, axis=-1)
    options = WaveCompileOptions(
        subs={M: shape[0], N: shape[1], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE},
        canonicalize=True,
        print_ir_after="all" if is_debug else [],
    )
    test = wave_compile(options, test)
    if is_debug:
        print(test.asm)
    test(a, c)
    assert_close(ref, c, atol=0.1, rtol=1e-05)


def test_broadcast_reduce_sum(is_debug=False):
    shape = (64, 128)
    M = tkl.sym.M
    N = tkl.sym.N
    wave_size = 64
    BLOCK_M = 1
    BLOCK_N = sympy.ceiling(N / wave_size) * wave_size
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    constraints: list[tkw.Constraint] = [tkw.HardwareConstraint(threads_per_wave=64, vector_shapes={M: 1, N: BLOCK_N})]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M, 1)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 0)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N)]

    @tkw.wave(constraints)
    def test(
        a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
        b: tkl.Memory[M, ADDRESS_SPACE, tkl.f16],
        c: tkl.Memory[M, ADDRESS_SPACE, tkl.f16],
        c_temp: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16],
    ):
        lhs = tkw.read(a)
        rhs = tkw.read(b)
        rhs = tkw.broadcast(rhs, (M, N))
        res = lhs * rhs
        tkw.write(res, c_temp)
        res = tkw.sum(res, dim=N)
        tkw.write(res, c)

    a = np.random.randn(*shape).astype(np.float16)
    b = np.random.randn(shape[0]).astype(np.float16)
    c = np.zeros((shape[0],), dtype=np.float16)
    c_temp = np.zeros(shape, dtype=np.float16)
    ref_temp = a * b.reshape(-1, 1)
    ref = np.sum(ref_temp, axis=-1)
    options = WaveCompileOptions(
        subs={M: shape[0], N: shape[1], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE},
        canonicalize=True,
        print_ir_after="all" if is_debug else [],
    )
    test = wave_compile(options, test)
    test(a, b, c, c_temp)
    assert_close(ref_temp, c_temp, atol=0.1, rtol=1e-05)
    assert_close(ref, c, atol=0.1, rtol=1e-05)


# ---- tests/kernel/wave_sim_test.py ----

def _sim_syms():
    return (tkl.sym.M, tkl.sym.N, tkl.sym.BLOCK_M, tkl.sym.BLOCK_N, tkl.sym.ADDRESS_SPACE,
            tkl.sym.LOAD_ELEMS_PER_THREAD, tkl.sym.STORE_ELEMS_PER_THREAD)


def test_sim_eltwise():
    from wavecc.wave_lang.kernel.wave.wave_sim import wave_sim
    M, N, BLOCK_M, BLOCK_N, ADDRESS_SPACE, LOAD_ELEMS_PER_THREAD, STORE_ELEMS_PER_THREAD = _sim_syms()
    constraints: list[tkw.Constraint] = [tkw.WorkgroupConstraint(M, BLOCK_M, 0)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 1)]
    constraints += [tkw.HardwareConstraint(threads_per_wave=64)]

    @wave_sim(constraints)
    def eltwise(
        a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32],
        b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32],
        c: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32],
    ):
        a_reg = tkw.read(a, elements_per_thread=LOAD_ELEMS_PER_THREAD)
        b_reg = tkw.read(b, elements_per_thread=LOAD_ELEMS_PER_THREAD)
        tkw.write(a_reg + b_reg, c, elements_per_thread=STORE_ELEMS_PER_THREAD)

    a = np.random.randn(128, 256).astype(np.float32)
    b = np.random.randn(128, 256).astype(np.float32)
    c = np.zeros((128, 256), dtype=np.float32)
    eltwise(a, b, c)
    assert_close(c, a + b)


def test_sim_broadcast_1():
    from wavecc.wave_lang.kernel.wave.wave_sim import wave_sim
    M, N, BLOCK_M, BLOCK_N, ADDRESS_SPACE, LOAD_ELEMS_PER_THREAD, STORE_ELEMS_PER_THREAD = _sim_syms()
    constraints: list[tkw.Constraint] = [tkw.WorkgroupConstraint(M, BLOCK_M, 0)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 1)]
    constraints += [tkw.HardwareConstraint(threads_per_wave=64)]

    @wave_sim(constraints)
    def eltwise(
        a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32],
        b: tkl.Memory[N, ADDRESS_SPACE, tkl.f32],
        c: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32],
    ):
        a_reg = tkw.read(a, elements_per_thread=LOAD_ELEMS_PER_THREAD)
        b_reg = tkw.read(b, elements_per_thread=LOAD_ELEMS_PER_THREAD)
        tkw.write(a_reg + b_reg, c, elements_per_thread=STORE_ELEMS_PER_THREAD)

    a = np.random.randn(128, 256).astype(np.float32)
    b = np.random.randn(256).astype(np.float32)
    c = np.zeros((128, 256), dtype=np.float32)
    eltwise(a, b, c)
    assert_close(c, a + b)


def test_sim_broadcast_2():
    from wavecc.wave_lang.kernel.wave.wave_sim import wave_sim
    M, N, BLOCK_M, BLOCK_N, ADDRESS_SPACE, LOAD_ELEMS_PER_THREAD, STORE_ELEMS_PER_THREAD = _sim_syms()
    constraints: list[tkw.Constraint] = [tkw.WorkgroupConstraint(M, BLOCK_M, 0)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 1)]
    constraints += [tkw.HardwareConstraint(threads_per_wave=64)]

    @wave_sim(constraints)
    def eltwise(
        b: tkl.Memory[N, ADDRESS_SPACE, tkl.f32],
        c: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32],
    ):
        b_reg = tkw.read(b, elements_per_thread=LOAD_ELEMS_PER_THREAD)
        tkw.write(b_reg, c, elements_per_thread=STORE_ELEMS_PER_THREAD)

    b = np.random.randn(256).astype(np.float32)
    c = np.zeros((128, 256), dtype=np.float32)
    eltwise(b, c)
    assert_close(c, b + np.zeros((128, 256), dtype=np.float32))


def _sim_transpose(on_write):
    from wavecc.wave_lang.kernel.wave.wave_sim import wave_sim
    M, N, BLOCK_M, BLOCK_N, ADDRESS_SPACE, LOAD_ELEMS_PER_THREAD, STORE_ELEMS_PER_THREAD = _sim_syms()
    constraints: list[tkw.Constraint] = [tkw.WorkgroupConstraint(M, BLOCK_M, 0)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 1)]
    constraints += [tkw.HardwareConstraint(threads_per_wave=64)]
    i = tkw.IndexMapping.iterator(0)
    j = tkw.IndexMapping.iterator(1)
    mapping = tkw.IndexMapping(num_iterators=2, inputs={N: i, M: j}, outputs={N: i, M: j})

    if on_write:
        @wave_sim(constraints)
        def transpose(
            a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32],
            c: tkl.Memory[N, M, ADDRESS_SPACE, tkl.f32],
        ):
            a_reg = tkw.read(a, elements_per_thread=LOAD_ELEMS_PER_THREAD)
            tkw.write(a_reg, c, mapping=mapping, elements_per_thread=STORE_ELEMS_PER_THREAD)
    else:
        @wave_sim(constraints)
        def transpose(
            a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f32],
            c: tkl.Memory[N, M, ADDRESS_SPACE, tkl.f32],
        ):
            a_reg = tkw.read(a, mapping=mapping, elements_per_thread=LOAD_ELEMS_PER_THREAD)
            tkw.write(a_reg, c, elements_per_thread=STORE_ELEMS_PER_THREAD)

    a = np.random.randn(128, 256).astype(np.float32)
    c = np.zeros((256, 128), dtype=np.float32)
    transpose(a, c)
    assert_close(c, a.T)


def test_sim_transpose_1():
    _sim_transpose(False)


def test_sim_transpose_2():
    _sim_transpose(True)


def _conv2d_ref(x, we, stride):
    n, c, h, w = x.shape
    nf, _, hf, wf = we.shape
    ho, wo = (h - hf) // stride + 1, (w - wf) // stride + 1
    out = np.zeros((n, nf, ho, wo), dtype=np.float64)
    for p in range(ho):
        for q in range(wo):
            patch = x[:, :, p * stride:p * stride + hf, q * stride:q * stride + wf].astype(np.float64)
            out[:, :, p, q] = np.einsum("nchw,fchw->nf", patch, we.astype(np.float64))
    return out.astype(np.float32)


def test_igemm_conv(n, c, nf, stride):
    from wavecc.wave_lang.kernel.wave.wave_sim import wave_sim
    h, w = 5, 5
    cf, hf, wf = c, 2, 2
    x = np.random.randn(n, c, h, w).astype(np.float32)
    we = np.random.randn(nf, cf, hf, wf).astype(np.float32)
    padding = 0
    out_ref = _conv2d_ref(x, we, stride)

    sym = tkl.sym
    N, C, H, W = sym.N, sym.C, sym.H, sym.W
    NF, HF, WF = sym.NF, sym.HF, sym.WF
    H_OUT = (H + 2 * padding - HF) // stride + 1
    W_OUT = (W + 2 * padding - WF) // stride + 1
    SZ_OUT = H_OUT * W_OUT
    K = HF * WF * C
    M = SZ_OUT * N
    i = tkw.IndexMapping.iterator(0)
    j = tkw.IndexMapping.iterator(1)
    x_mapping = tkw.IndexMapping(
        num_iterators=2,
        inputs={
            N: i // SZ_OUT,
            C: j // (HF * WF),
            H: (i % SZ_OUT) % W_OUT * stride + (j % (HF * WF)) % WF,
            W: (i % SZ_OUT) // W_OUT * stride + (j % (HF * WF)) // WF,
        },
        outputs={M: i, K: j},
    )
    w_mapping = tkw.IndexMapping(
        num_iterators=2,
        inputs={NF: i % NF, C: j // (HF * WF), HF: j % WF, WF: (j % (HF * WF)) // WF},
        outputs={NF: i, K: j},
    )
    out_mapping = tkw.IndexMapping(
        num_iterators=2,
        inputs={M: i, NF: j},
        outputs={N: i // SZ_OUT, NF: j, H_OUT: (i % SZ_OUT) % W_OUT, W_OUT: (i % SZ_OUT) // W_OUT},
    )
    BLOCK_M = tkl.sym.BLOCK_M
    BLOCK_N = tkl.sym.BLOCK_N
    BLOCK_K = tkl.sym.BLOCK_K
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    LOAD_ELEMS_PER_THREAD = tkl.sym.LOAD_ELEMS_PER_THREAD
    STORE_ELEMS_PER_THREAD = tkl.sym.STORE_ELEMS_PER_THREAD
    constraints: list[tkw.Constraint] = [tkw.WorkgroupConstraint(M, BLOCK_M, 0)]
    constraints += [tkw.WorkgroupConstraint(NF, BLOCK_N, 1)]
    constraints += [tkw.TilingConstraint(K, BLOCK_K)]
    constraints += [tkw.HardwareConstraint(threads_per_wave=64)]

    @wave_sim(constraints)
    def conv(
        x: tkl.Memory[N, C, H, W, ADDRESS_SPACE, tkl.f16],
        we: tkl.Memory[NF, C, HF, WF, ADDRESS_SPACE, tkl.f16],
        out: tkl.Memory[N, NF, H_OUT, W_OUT, ADDRESS_SPACE, tkl.f32],
    ):
        c_reg = tkl.Register[M, NF, tkl.f32](0.0)

        @tkw.iterate(K, init_args=[c_reg])
        def repeat(acc: tkl.Register[M, NF, tkl.f32]) -> tkl.Register[M, NF, tkl.f32]:
            a_reg = tkw.read(x, mapping=x_mapping, elements_per_thread=LOAD_ELEMS_PER_THREAD)
            b_reg = tkw.read(we, mapping=w_mapping, elements_per_thread=LOAD_ELEMS_PER_THREAD)
            acc = tkw.mma(a_reg, b_reg, acc)
            return acc

        tkw.write(repeat, out, mapping=out_mapping, elements_per_thread=STORE_ELEMS_PER_THREAD)

    out = np.zeros_like(out_ref)
    conv(x, we, out)
    # Wave's simulator multiplies the f32 tensors as they are; wavecc's interpreter reads the f16 memories the
    # kernel declares, so the reference takes f16-rounded inputs
    out_ref = _conv2d_ref(x.astype(np.float16), we.astype(np.float16), stride)
    assert_close(out, out_ref, rtol=1e-05, atol=1e-05)


# ---- tests/kernel/wave_gemm_test.py ----

def testGemmBench(tmp_path, mfma_variant=tkw.MMAType.F32_16x16x16_F16, threads_per_wave=64):
    from wavecc.wave_lang.kernel.wave.templates.gemm import get_gemm_kernel
    from wavecc.wave_lang.kernel.wave.iree_utils import generate_iree_ref
    from wavecc.wave_lang.kernel.wave.scheduling.schedule import SchedulingType
    shape = (64, 64, 64)
    perf_filename_tk = tmp_path / "wave_gemm_bench.txt"
    perf_filename_iree = tmp_path / "iree_gemm_bench.txt"
    enable_scheduling = SchedulingType.NONE
    dynamic_dims = False
    gemm, hyperparams, dynamic_symbols = get_gemm_kernel(
        shape, dynamic_dims, mfma_variant, np.float16, threads_per_wave=threads_per_wave)
    assert not perf_filename_tk.exists()
    options = WaveCompileOptions(
        subs=hyperparams,
        canonicalize=True,
        run_bench=True,
        schedule=enable_scheduling,
        dynamic_symbols=dynamic_symbols,
        benchmark_batch_size=10,
        benchmark_repetitions=3,
        benchmark_results_file=perf_filename_tk,
    )
    options = set_default_run_config(options)
    gemm = wave_compile(options, gemm)
    a = device_randn(shape[0], shape[2], dtype=np.float16)
    b = device_randn(shape[1], shape[2], dtype=np.float16)
    c = device_zeros(shape[0], shape[1], dtype=np.float32)
    gemm(a, b, c)
    assert perf_filename_tk.exists()
    assert "real_time" in perf_filename_tk.read_text()
    assert "cycle_model" in perf_filename_tk.read_text()
    assert not perf_filename_iree.exists()
    options.benchmark_results_file = perf_filename_iree
    iree_ref = device_zeros(shape[0], shape[1], dtype=np.float32)
    generate_iree_ref("mmt", [a, b], [iree_ref], options)
    assert perf_filename_iree.exists()
    assert "real_time" in perf_filename_iree.read_text()
    assert_close(c, iree_ref, rtol=1e-3, atol=1e-2)


def _gemm_sym():
    return (tkl.sym.M, tkl.sym.N, tkl.sym.K, tkl.sym.BLOCK_M, tkl.sym.BLOCK_N, tkl.sym.BLOCK_K,
            tkl.sym.ADDRESS_SPACE)


def validate_gemm_result(a, b, c, options=None, run_bench=False, perf_filename_iree=None, ref_type="mmt",
                         rtol=1e-3, atol=1e-2):
    from wavecc.wave_lang.kernel.wave.iree_utils import generate_iree_ref
    out_dtype = c.dtype
    if run_bench and perf_filename_iree is not None:
        options.benchmark_results_file = perf_filename_iree
    iree_ref = device_zeros(c.shape[0], c.shape[1], dtype=out_dtype)
    generate_iree_ref(ref_type, [a, b], [iree_ref], options)
    assert_close(c, iree_ref, rtol=rtol, atol=atol)


def testGemmSmallTiles(shape, enable_scheduling, dynamic_dims, mfma_variant, threads_per_wave=64, run_bench=False,
                       perf_filename_tk=None, perf_filename_iree=None):
    M, N, K, BLOCK_M, BLOCK_N, BLOCK_K, ADDRESS_SPACE = _gemm_sym()
    constraints: list[tkw.Constraint] = [tkw.WorkgroupConstraint(M, BLOCK_M, 0)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 1)]
    constraints += [tkw.TilingConstraint(K, BLOCK_K)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N)]
    constraints += [tkw.HardwareConstraint(threads_per_wave=threads_per_wave, mma_type=mfma_variant)]
    if dynamic_dims:
        constraints += [tkw.Assumption(K > BLOCK_K * 4)]

    @tkw.wave(constraints)
    def gemm(
        a: tkl.Memory[M, K, ADDRESS_SPACE, tkl.f16],
        b: tkl.Memory[N, K, ADDRESS_SPACE, tkl.f16],
        c: tkl.Memory[M, N, GLOBAL_ADDRESS_SPACE, tkl.f32],
    ):
        c_reg = tkl.Register[M, N, tkl.f32](0.0)

        @tkw.iterate(K, init_args=[c_reg])
        def repeat(acc: tkl.Register[M, N, tkl.f32]) -> tkl.Register[M, N, tkl.f32]:
            a_reg = tkw.read(a)
            b_reg = tkw.read(b)
            acc = tkw.mma(a_reg, b_reg, acc)
            return acc

        tkw.write(repeat, c)

    hyperparams = {ADDRESS_SPACE: SHARED_ADDRESS_SPACE, BLOCK_M: 8, BLOCK_N: 8, BLOCK_K: 8,
                   M: shape[0], N: shape[1], K: shape[2]}
    hyperparams.update(get_default_scheduling_params())
    dynamic_symbols = []
    if dynamic_dims:
        dynamic_symbols.append(M)
        dynamic_symbols.append(N)
        dynamic_symbols.append(K)
        del hyperparams[M]
        del hyperparams[N]
        del hyperparams[K]
    options = WaveCompileOptions(subs=hyperparams, canonicalize=True, schedule=enable_scheduling,
                                 dynamic_symbols=dynamic_symbols, use_buffer_ops=True)
    options = set_default_run_config(options)
    gemm = wave_compile(options, gemm)
    a = device_randn(shape[0], shape[2], dtype=np.float16)
    b = device_randn(shape[1], shape[2], dtype=np.float16)
    c = device_zeros(shape[0], shape[1], dtype=np.float32)
    gemm(a, b, c)
    validate_gemm_result(a, b, c, options, run_bench, perf_filename_iree)


def testCDNA2IntGemm(shape, enable_scheduling, dynamic_dims, mfma_variant, run_bench=False):
    from wavecc.wave_lang.kernel.wave.iree_utils import generate_iree_ref  # noqa: F401
    M, N, K, BLOCK_M, BLOCK_N, BLOCK_K, ADDRESS_SPACE = _gemm_sym()
    constraints: list[tkw.Constraint] = [tkw.WorkgroupConstraint(M, BLOCK_M, 0)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 1)]
    constraints += [tkw.TilingConstraint(K, BLOCK_K)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M / 2)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N / 2)]
    constraints += [tkw.HardwareConstraint(threads_per_wave=64, mma_type=mfma_variant)]
    if dynamic_dims:
        constraints += [tkw.Assumption(K > BLOCK_K * 4)]

    @tkw.wave(constraints)
    def gemm(
        a: tkl.Memory[M, K, ADDRESS_SPACE, tkl.i8],
        b: tkl.Memory[N, K, ADDRESS_SPACE, tkl.i8],
        c: tkl.Memory[M, N, GLOBAL_ADDRESS_SPACE, tkl.i32],
    ):
        c_reg = tkl.Register[M, N, tkl.i32](0.0)

        @tkw.iterate(K, init_args=[c_reg])
        def repeat(acc: tkl.Register[M, N, tkl.i32]) -> tkl.Register[M, N, tkl.i32]:
            a_reg = tkw.read(a)
            b_reg = tkw.read(b)
            acc = tkw.mma(a_reg, b_reg, acc)
            return acc

        tkw.write(repeat, c)

    hyperparams = {ADDRESS_SPACE: SHARED_ADDRESS_SPACE, BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32,
                   M: shape[0], N: shape[1], K: shape[2]}
    hyperparams.update(get_default_scheduling_params())
    dynamic_symbols = []
    if dynamic_dims:
        dynamic_symbols = [M, N, K]
        del hyperparams[M]
        del hyperparams[N]
        del hyperparams[K]
    options = WaveCompileOptions(subs=hyperparams, canonicalize=True, schedule=enable_scheduling,
                                 dynamic_symbols=dynamic_symbols)
    options = set_default_run_config(options)
    gemm = wave_compile(options, gemm)
    randint_hi = 4
    a = device_randint(randint_hi, (shape[0], shape[2]), dtype=np.int8)
    b = device_randint(randint_hi, (shape[1], shape[2]), dtype=np.int8)
    c = device_zeros(shape[0], shape[1], dtype=np.int32)
    gemm(a, b, c)
    ref = a.astype(np.int32) @ b.astype(np.int32).T
    assert_close(c, ref)


def _batched_gemm_constraints(B, M, N, K, BLOCK_B, BLOCK_M, BLOCK_N, BLOCK_K, mfma_variant, threads_per_wave,
                              sequential=False):
    constraints: list[tkw.Constraint] = [tkw.WorkgroupConstraint(M, BLOCK_M, 0)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 1)]
    if sequential:
        constraints += [tkw.TilingConstraint(K, BLOCK_K)]
        constraints += [tkw.TilingConstraint(B, BLOCK_B)]
    else:
        constraints += [tkw.WorkgroupConstraint(B, BLOCK_B, 2)]
        constraints += [tkw.TilingConstraint(K, BLOCK_K)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M / 2)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N / 2)]
    constraints += [tkw.HardwareConstraint(mma_type=mfma_variant, threads_per_wave=threads_per_wave,
                                           vector_shapes={B: 0})]
    return constraints


def testBatchedGemm(shape, enable_scheduling, mfma_variant, threads_per_wave=64, run_bench=False):
    from wavecc.wave_lang.kernel.wave.iree_utils import generate_iree_ref
    B = tkl.sym.B
    M, N, K, BLOCK_M, BLOCK_N, BLOCK_K, ADDRESS_SPACE = _gemm_sym()
    BLOCK_B = tkl.sym.BLOCK_B
    constraints = _batched_gemm_constraints(B, M, N, K, BLOCK_B, BLOCK_M, BLOCK_N, BLOCK_K, mfma_variant,
                                            threads_per_wave)

    @tkw.wave(constraints)
    def batched_gemm(
        a: tkl.Memory[B, M, K, ADDRESS_SPACE, tkl.f16],
        b: tkl.Memory[B, N, K, ADDRESS_SPACE, tkl.f16],
        c: tkl.Memory[B, M, N, GLOBAL_ADDRESS_SPACE, tkl.f32],
    ):
        c_reg = tkl.Register[B, M, N, tkl.f32](0.0)

        @tkw.iterate(K, init_args=[c_reg])
        def repeat(acc: tkl.Register[B, M, N, tkl.f32]) -> tkl.Register[B, M, N, tkl.f32]:
            a_reg = tkw.read(a)
            b_reg = tkw.read(b)
            acc = tkw.mma(a_reg, b_reg, acc)
            return acc

        tkw.write(repeat, c)

    hyperparams = {ADDRESS_SPACE: SHARED_ADDRESS_SPACE, BLOCK_B: 1, BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32,
                   B: shape[0], M: shape[1], N: shape[2], K: shape[3]}
    hyperparams.update(get_default_scheduling_params())
    options = WaveCompileOptions(subs=hyperparams, canonicalize=True, schedule=enable_scheduling)
    options = set_default_run_config(options)
    batched_gemm = wave_compile(options, batched_gemm)
    a = device_randn(shape[0], shape[1], shape[3], dtype=np.float16)
    b = device_randn(shape[0], shape[2], shape[3], dtype=np.float16)
    c = device_zeros(shape[0], shape[1], shape[2], dtype=np.float32)
    batched_gemm(a, b, c)
    iree_ref = device_zeros(shape[0], shape[1], shape[2], dtype=np.float32)
    generate_iree_ref("bmmt", [a, b], [iree_ref], options)
    # Wave compares with IREE's GEMM at f32's default tolerances (1e-5); wavecc's reference is numpy's f32 sum,
    # whose order differs from the MFMA's: at K = 192 a few elements differ by ~1.1e-5
    assert_close(c, iree_ref, atol=3e-5, rtol=1.3e-6)
    ref = np.matmul(a.astype(np.float32), np.swapaxes(b, -2, -1).astype(np.float32))
    assert_close(c.astype(np.float16), ref.astype(np.float16), atol=1e-3, rtol=5e-3)


def testSequentialBatchedGemm(shape, enable_scheduling, mfma_variant, threads_per_wave=64, run_bench=False):
    from wavecc.wave_lang.kernel.wave.iree_utils import generate_iree_ref
    B = tkl.sym.B
    M, N, K, BLOCK_M, BLOCK_N, BLOCK_K, ADDRESS_SPACE = _gemm_sym()
    BLOCK_B = tkl.sym.BLOCK_B
    constraints = _batched_gemm_constraints(B, M, N, K, BLOCK_B, BLOCK_M, BLOCK_N, BLOCK_K, mfma_variant,
                                            threads_per_wave, sequential=True)

    @tkw.wave(constraints)
    def batched_gemm(
        a: tkl.Memory[B, M, K, ADDRESS_SPACE, tkl.f16],
        b: tkl.Memory[B, N, K, ADDRESS_SPACE, tkl.f16],
        c: tkl.Memory[B, M, N, GLOBAL_ADDRESS_SPACE, tkl.f32],
    ):
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

    hyperparams = {ADDRESS_SPACE: SHARED_ADDRESS_SPACE, BLOCK_B: 1, BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32,
                   B: shape[0], M: shape[1], N: shape[2], K: shape[3]}
    hyperparams.update(get_default_scheduling_params())
    options = WaveCompileOptions(subs=hyperparams, canonicalize=True, schedule=enable_scheduling)
    options = set_default_run_config(options)
    batched_gemm = wave_compile(options, batched_gemm)
    a = device_randn(shape[0], shape[1], shape[3], dtype=np.float16)
    b = device_randn(shape[0], shape[2], shape[3], dtype=np.float16)
    c = device_zeros(shape[0], shape[1], shape[2], dtype=np.float32)
    batched_gemm(a, b, c)
    iree_ref = device_zeros(shape[0], shape[1], shape[2], dtype=np.float32)
    generate_iree_ref("bmmt", [a, b], [iree_ref], options)
    # Wave compares with IREE's GEMM at f32's default tolerances (1e-5); wavecc's reference is numpy's f32 sum,
    # whose order differs from the MFMA's: at K = 192 a few elements differ by ~1.1e-5
    assert_close(c, iree_ref, atol=3e-5, rtol=1.3e-6)
    ref = np.matmul(a.astype(np.float32), np.swapaxes(b, -2, -1).astype(np.float32))
    assert_close(c.astype(np.float16), ref.astype(np.float16), atol=1e-3, rtol=5e-3)


def testBatchedGemmWithPermute(shape, enable_scheduling, mfma_variant, threads_per_wave=64, run_bench=False):
    B = tkl.sym.B
    M, N, K, BLOCK_M, BLOCK_N, BLOCK_K, ADDRESS_SPACE = _gemm_sym()
    BLOCK_B = tkl.sym.BLOCK_B
    constraints = _batched_gemm_constraints(B, M, N, K, BLOCK_B, BLOCK_M, BLOCK_N, BLOCK_K, mfma_variant,
                                            threads_per_wave)

    @tkw.wave(constraints)
    def batched_gemm_with_permute(
        a: tkl.Memory[B, M, K, ADDRESS_SPACE, tkl.f16],
        b: tkl.Memory[B, N, K, ADDRESS_SPACE, tkl.f16],
        c: tkl.Memory[M, B, N, ADDRESS_SPACE, tkl.f32],
    ):
        c_reg = tkl.Register[B, M, N, tkl.f32](0.0)

        @tkw.iterate(K, init_args=[c_reg])
        def repeat(acc: tkl.Register[B, M, N, tkl.f32]) -> tkl.Register[B, M, N, tkl.f32]:
            a_reg = tkw.read(a)
            b_reg = tkw.read(b)
            acc = tkw.mma(a_reg, b_reg, acc)
            return acc

        res = tkw.permute(repeat, target_shape=[M, B, N])
        tkw.write(res, c)

    hyperparams = {ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE, BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 16, BLOCK_B: 1,
                   B: shape[0], M: shape[1], N: shape[2], K: shape[3]}
    hyperparams.update(get_default_scheduling_params())
    options = WaveCompileOptions(subs=hyperparams, canonicalize=True, schedule=enable_scheduling)
    options = set_default_run_config(options)
    batched_gemm_with_permute = wave_compile(options, batched_gemm_with_permute)
    a = device_randn(shape[0], shape[1], shape[3], dtype=np.float16)
    b = device_randn(shape[0], shape[2], shape[3], dtype=np.float16)
    c = device_zeros(shape[1], shape[0], shape[2], dtype=np.float32)
    batched_gemm_with_permute(a, b, c)
    ref = np.matmul(a.astype(np.float32), b.astype(np.float32).transpose(0, 2, 1)).transpose(1, 0, 2)
    assert_close(c.astype(np.float16), ref.astype(np.float16), atol=1e-3, rtol=5e-3)


def testPingPongGemm(shape, mfma_variant, threads_per_wave=64, use_global_to_shared=False, run_bench=False):
    M, N, K, BLOCK_M, BLOCK_N, BLOCK_K, ADDRESS_SPACE = _gemm_sym()
    constraints: list[tkw.Constraint] = [tkw.WorkgroupConstraint(M, BLOCK_M, 0)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 1)]
    constraints += [tkw.TilingConstraint(K, BLOCK_K)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M / 4)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N / 2)]
    constraints += [tkw.HardwareConstraint(threads_per_wave=threads_per_wave, mma_type=mfma_variant)]

    @tkw.wave(constraints)
    def gemm(
        a: tkl.Memory[M, K, ADDRESS_SPACE, tkl.f16],
        b: tkl.Memory[N, K, ADDRESS_SPACE, tkl.f16],
        c: tkl.Memory[M, N, GLOBAL_ADDRESS_SPACE, tkl.f32],
    ):
        c_reg = tkl.Register[M, N, tkl.f32](0.0)

        @tkw.iterate(K, init_args=[c_reg])
        def repeat(acc: tkl.Register[M, N, tkl.f32]) -> tkl.Register[M, N, tkl.f32]:
            a_reg = tkw.read(a)
            b_reg = tkw.read(b)
            acc = tkw.mma(a_reg, b_reg, acc)
            return acc

        tkw.write(repeat, c)

    hyperparams = {ADDRESS_SPACE: SHARED_ADDRESS_SPACE, BLOCK_M: 128, BLOCK_N: 256, BLOCK_K: 64,
                   M: shape[0], N: shape[1], K: shape[2]}
    hyperparams.update(get_default_scheduling_params())
    options = WaveCompileOptions(subs=hyperparams, canonicalize=True, schedule=SchedulingType.PREFETCH,
                                 use_scheduling_barriers=False, dynamic_symbols=[],
                                 use_global_to_shared=use_global_to_shared)
    options = set_default_run_config(options)
    gemm = wave_compile(options, gemm)
    a = device_randn(shape[0], shape[2], dtype=np.float16)
    b = device_randn(shape[1], shape[2], dtype=np.float16)
    c = device_zeros(shape[0], shape[1], dtype=np.float32)
    gemm(a, b, c)
    validate_gemm_result(a, b, c, options, run_bench, None)


# ---- tests/kernel/attention/vanilla_attention_test.py ----

def _sdpa(q, k, v, is_causal=False):
    """torch.nn.functional.scaled_dot_product_attention in numpy (f32 arithmetic)."""
    q, k, v = (x.astype(np.float32) for x in (q, k, v))
    s = np.matmul(q, np.swapaxes(k, -1, -2)) / np.sqrt(q.shape[-1])
    if is_causal:
        m, n = s.shape[-2:]
        s = np.where(np.tril(np.ones((m, n), dtype=bool)), s, -np.inf)
    s = np.exp(s - s.max(-1, keepdims=True))
    return np.matmul(s / s.sum(-1, keepdims=True), v)


def testTransposedVAttentionPure(input_shape, enable_scheduling, dynamic_dims, mfma_variant, run_bench=False,
                                 perf_filename_tk=None):
    from wavecc.wave_lang.kernel.wave.templates.vanilla_attention import get_vanilla_attention_kernel
    from wavecc.wave_lang.kernel.wave.templates.attention_common import AttentionShape
    shape = AttentionShape(num_query_heads=input_shape[0], num_kv_heads=input_shape[0],
                           query_seq_len=input_shape[1], head_size_kv=input_shape[2], head_size=input_shape[3],
                           kv_seq_len=input_shape[4])
    base_attention, hyperparams, dynamic_symbols = get_vanilla_attention_kernel(
        shape, mfma_variant, dynamic_dims, is_v_transposed=True)
    q_shape = (shape.num_query_heads, shape.query_seq_len, shape.head_size)
    k_shape = (shape.num_kv_heads, shape.kv_seq_len, shape.head_size)
    v_shape = (shape.num_kv_heads, shape.kv_seq_len, shape.head_size_kv)
    o_shape = (shape.num_query_heads, shape.query_seq_len, shape.head_size_kv)
    hyperparams.update(get_default_scheduling_params())
    options = WaveCompileOptions(subs=hyperparams, schedule=enable_scheduling, dynamic_symbols=dynamic_symbols,
                                 run_bench=run_bench, waves_per_eu=2, denorm_fp_math_f32="preserve-sign",
                                 benchmark_batch_size=10, benchmark_repetitions=3,
                                 benchmark_results_file=perf_filename_tk)
    options = set_default_run_config(options)
    base_attention = wave_compile(options, base_attention)
    q = device_randn(q_shape, dtype=np.float16)
    k = device_randn(k_shape, dtype=np.float16)
    v = device_randn(v_shape, dtype=np.float16)
    output = device_zeros(o_shape, dtype=np.float32)
    base_attention(q, k, v.transpose([0, 2, 1]), output)
    ref = _sdpa(q, k, v)
    assert_close(output, ref, check_dtype=False, atol=1e-3, rtol=1e-3)


def testAttentionPure(input_shape, enable_scheduling, dynamic_dims, mfma_variant, use_global_to_shared,
                      run_bench=False, perf_filename_tk=None):
    from wavecc.wave_lang.kernel.wave.templates.vanilla_attention import get_vanilla_attention_kernel
    from wavecc.wave_lang.kernel.wave.templates.attention_common import AttentionShape
    shape = AttentionShape(num_query_heads=input_shape[0], num_kv_heads=input_shape[0],
                           query_seq_len=input_shape[1], head_size_kv=input_shape[2], head_size=input_shape[3],
                           kv_seq_len=input_shape[4])
    base_attention, hyperparams, dynamic_symbols = get_vanilla_attention_kernel(shape, mfma_variant, dynamic_dims)
    q_shape = (shape.num_query_heads, shape.query_seq_len, shape.head_size)
    k_shape = (shape.num_kv_heads, shape.kv_seq_len, shape.head_size)
    v_shape = (shape.num_kv_heads, shape.kv_seq_len, shape.head_size_kv)
    o_shape = (shape.num_query_heads, shape.query_seq_len, shape.head_size_kv)
    hyperparams.update(get_default_scheduling_params())
    options = WaveCompileOptions(subs=hyperparams, schedule=enable_scheduling, dynamic_symbols=dynamic_symbols,
                                 run_bench=run_bench, waves_per_eu=2, denorm_fp_math_f32="preserve-sign",
                                 use_global_to_shared=use_global_to_shared)
    options = set_default_run_config(options)
    base_attention = wave_compile(options, base_attention)
    q = device_randn(q_shape, dtype=np.float16)
    k = device_randn(k_shape, dtype=np.float16)
    v = device_randn(v_shape, dtype=np.float16)
    output = device_zeros(o_shape, dtype=np.float32)
    base_attention(q, k, v, output)
    ref = _sdpa(q, k, v)
    assert_close(output, ref, check_dtype=False, atol=1e-3, rtol=1e-3)



def testAttentionCausal(shape, enable_scheduling, sliding_window, dynamic_dims, mfma_variant, run_bench=False,
                        perf_filename_tk=None):
    from wavecc.wave_lang.kernel.wave.templates.vanilla_attention import get_vanilla_attention_kernel
    from wavecc.wave_lang.kernel.wave.templates.attention_common import AttentionShape
    shape = AttentionShape(num_query_heads=shape[0], num_kv_heads=shape[0], query_seq_len=shape[1],
                           head_size_kv=shape[2], head_size=shape[3], kv_seq_len=shape[4])
    base_attention, hyperparams, dynamic_symbols = get_vanilla_attention_kernel(
        shape, mfma_variant, dynamic_dims, is_causal=True, is_v_transposed=True, sliding_window_size=sliding_window)
    q_shape = (shape.num_query_heads, shape.query_seq_len, shape.head_size)
    k_shape = (shape.num_kv_heads, shape.kv_seq_len, shape.head_size)
    v_shape = (shape.num_kv_heads, shape.kv_seq_len, shape.head_size_kv)
    o_shape = (shape.num_query_heads, shape.query_seq_len, shape.head_size_kv)
    hyperparams.update(get_default_scheduling_params())
    options = WaveCompileOptions(subs=hyperparams, schedule=enable_scheduling, dynamic_symbols=dynamic_symbols,
                                 run_bench=run_bench, waves_per_eu=2, denorm_fp_math_f32="preserve-sign",
                                 benchmark_batch_size=10, benchmark_repetitions=3,
                                 benchmark_results_file=perf_filename_tk)
    options = set_default_run_config(options)
    base_attention = wave_compile(options, base_attention)
    np.random.seed(1)
    q = device_randn(q_shape, dtype=np.float16)
    k = device_randn(k_shape, dtype=np.float16)
    v = device_randn(v_shape, dtype=np.float16)
    output = device_zeros(o_shape, dtype=np.float32)
    base_attention(q, k, v.transpose([0, 2, 1]), output)
    if sliding_window >= 0:
        mask = np.triu(np.tril(np.ones((shape.query_seq_len, shape.kv_seq_len), dtype=bool)), -sliding_window)
        qf, kf, vf = (x.astype(np.float32) for x in (q, k, v))
        sc = np.matmul(qf, np.swapaxes(kf, -1, -2)) / np.sqrt(qf.shape[-1])
        sc = np.where(mask, sc, -np.inf)
        sc = np.exp(sc - sc.max(-1, keepdims=True))
        ref = np.matmul(sc / sc.sum(-1, keepdims=True), vf)
    else:
        ref = _sdpa(q, k, v, is_causal=True)
    assert_close(output, ref, check_dtype=False, atol=1e-3, rtol=1e-3)


def testAttentionBSHD(shape, enable_scheduling, dynamic_dims, mfma_variant, use_global_to_shared=False,
                      run_bench=False, perf_filename_tk=None):
    from wavecc.wave_lang.kernel.wave.templates.vanilla_attention import get_bshd_attention_kernel
    from wavecc.wave_lang.kernel.wave.templates.attention_common import AttentionShape
    from wavecc.wave_lang.kernel.wave.utils.reference_kernel_utils import scaled_dot_product_attention_bhsd
    shape = AttentionShape(num_query_heads=shape[0], num_kv_heads=shape[0], query_seq_len=shape[1],
                           head_size_kv=shape[2], head_size=shape[3], kv_seq_len=shape[4])
    is_causal = False
    is_custom_mask = True
    custom_mask = None
    base_attention_func, hyperparams, dynamic_symbols = get_bshd_attention_kernel(
        shape, mfma_variant, dynamic_dims, is_causal=is_causal, is_custom_mask=is_custom_mask)
    q_shape = (1, shape.num_query_heads, shape.query_seq_len, shape.head_size)
    k_shape = (1, shape.num_kv_heads, shape.kv_seq_len, shape.head_size)
    v_shape = (1, shape.num_kv_heads, shape.kv_seq_len, shape.head_size_kv)
    hyperparams.update(get_default_scheduling_params())
    options = WaveCompileOptions(subs=hyperparams, schedule=enable_scheduling, dynamic_symbols=dynamic_symbols,
                                 run_bench=run_bench, waves_per_eu=2, denorm_fp_math_f32="preserve-sign",
                                 benchmark_batch_size=10, benchmark_repetitions=3,
                                 benchmark_results_file=perf_filename_tk, use_global_to_shared=use_global_to_shared)
    options = set_default_run_config(options)
    base_attention = wave_compile(options, base_attention_func)
    np.random.seed(1)
    q = device_randn(q_shape, dtype=np.float16)
    k = device_randn(k_shape, dtype=np.float16)
    v = device_randn(v_shape, dtype=np.float16)
    o_shape = (1, shape.query_seq_len, shape.num_query_heads, shape.head_size_kv)
    output = device_zeros(o_shape, dtype=np.float32)
    custom_mask = device_randn([1, shape.query_seq_len], dtype=np.float32)
    custom_mask = (custom_mask > 0).astype(np.int32)
    base_attention(np.ascontiguousarray(q.transpose(0, 2, 1, 3)), np.ascontiguousarray(k.transpose(0, 2, 1, 3)),
                   np.ascontiguousarray(v.transpose(0, 2, 1, 3)), custom_mask.astype(np.int8), output)
    ref = scaled_dot_product_attention_bhsd(q, k, v, is_causal=is_causal, custom_mask=custom_mask)
    assert_close(output.transpose(0, 2, 1, 3), ref, check_dtype=False, atol=1e-3, rtol=1e-3)


def testAttentionBHSDCausal(shape, enable_scheduling, dynamic_dims, mfma_variant, run_bench=False,
                            perf_filename_tk=None):
    from wavecc.wave_lang.kernel.wave.templates.vanilla_attention import get_bhsd_attention_kernel
    from wavecc.wave_lang.kernel.wave.templates.attention_common import AttentionShape
    from wavecc.wave_lang.kernel.wave.utils.reference_kernel_utils import scaled_dot_product_attention_bhsd
    shape = AttentionShape(batch_size=shape[0], num_query_heads=shape[1], num_kv_heads=shape[1],
                           query_seq_len=shape[2], head_size_kv=shape[3], head_size=shape[4], kv_seq_len=shape[5])
    base_attention_func, hyperparams, dynamic_symbols = get_bhsd_attention_kernel(
        shape, mfma_variant, dynamic_dims, is_causal=True, is_custom_mask=False)
    q_shape = (shape.batch_size, shape.num_query_heads, shape.query_seq_len, shape.head_size)
    k_shape = (shape.batch_size, shape.num_query_heads, shape.kv_seq_len, shape.head_size)
    v_shape = (shape.batch_size, shape.num_query_heads, shape.kv_seq_len, shape.head_size_kv)
    hyperparams.update(get_default_scheduling_params())
    options = WaveCompileOptions(subs=hyperparams, schedule=enable_scheduling, dynamic_symbols=dynamic_symbols,
                                 waves_per_eu=2, denorm_fp_math_f32="preserve-sign", run_bench=run_bench,
                                 benchmark_batch_size=10, benchmark_repetitions=3,
                                 benchmark_results_file=perf_filename_tk)
    options = set_default_run_config(options)
    base_attention = wave_compile(options, base_attention_func)
    np.random.seed(1)
    q = device_randn(q_shape, dtype=np.float16)
    k = device_randn(k_shape, dtype=np.float16)
    v = device_randn(v_shape, dtype=np.float16)
    o_shape = (shape.batch_size, shape.num_query_heads, shape.query_seq_len, shape.head_size_kv)
    output = device_zeros(o_shape, dtype=np.float32)
    base_attention(q, k, v, output)
    ref = scaled_dot_product_attention_bhsd(q, k, v, is_causal=True)
    assert_close(output, ref, check_dtype=False, atol=1e-3, rtol=1e-3)


def testAttentionBias(shape, enable_scheduling, dynamic_dims, mfma_variant, run_bench=False, perf_filename_tk=None):
    import math
    B = tkl.sym.B
    M = tkl.sym.M
    N = tkl.sym.N
    K1 = tkl.sym.K1
    K2 = tkl.sym.K2
    BLOCK_B = tkl.sym.BLOCK_B
    BLOCK_M = tkl.sym.BLOCK_M
    BLOCK_N = tkl.sym.BLOCK_N
    BLOCK_K2 = tkl.sym.BLOCK_K2
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    constraints: list[tkw.Constraint] = [tkw.WorkgroupConstraint(M, BLOCK_M, 0)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 1)]
    constraints += [tkw.WorkgroupConstraint(B, BLOCK_B, 2)]
    constraints += [tkw.TilingConstraint(K2, BLOCK_K2)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M / 4)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N / 1)]
    if mfma_variant == MMAType.F32_16x16x16_F16:
        Mvec, Nvec, TPW = 16, 16, 64
    if mfma_variant == MMAType.F32_32x32x8_F16:
        Mvec, Nvec, TPW = 32, 32, 64
    constraints += [tkw.HardwareConstraint(threads_per_wave=TPW, mma_type=mfma_variant,
                                           vector_shapes={B: 0, M: Mvec, N: Nvec})]
    if dynamic_dims:
        constraints += [tkw.Assumption(K2 > BLOCK_K2 * 4)]
    i = tkw.IndexMapping.iterator(0)
    j = tkw.IndexMapping.iterator(1)
    k = tkw.IndexMapping.iterator(2)
    mapping = tkw.IndexMapping(num_iterators=3, inputs={B: i, N: j, M: k}, outputs={B: i, M: k, N: j})

    @tkw.wave(constraints)
    def base_attention_bias(
        q: tkl.Memory[B, M, K1, ADDRESS_SPACE, tkl.f16],
        k: tkl.Memory[B, K2, K1, ADDRESS_SPACE, tkl.f16],
        v: tkl.Memory[B, N, K2, ADDRESS_SPACE, tkl.f16],
        bias: tkl.Memory[B, M, K2, GLOBAL_ADDRESS_SPACE, tkl.f32],
        c: tkl.Memory[B, M, N, GLOBAL_ADDRESS_SPACE, tkl.f32],
    ):
        c_reg = tkl.Register[B, N, M, tkl.f32](0.0)
        init_sum = tkl.Register[B, M, tkl.f32](0.0)
        init_max = tkl.Register[B, M, tkl.f32](-1e6)

        @tkw.iterate(K2, init_args=[init_max, init_sum, c_reg])
        def repeat(
            partial_max: tkl.Register[B, M, tkl.f32],
            partial_sum: tkl.Register[B, M, tkl.f32],
            acc: tkl.Register[B, N, M, tkl.f32],
        ) -> tuple[tkl.Register[B, M, tkl.f32], tkl.Register[B, M, tkl.f32], tkl.Register[B, N, M, tkl.f32]]:
            imm_reg = tkl.Register[B, K2, M, tkl.f32](0.0)
            q_reg = tkw.read(q)
            k_reg = tkw.read(k)
            inner_acc = tkw.mma(k_reg, q_reg, imm_reg)
            x_j = tkw.permute(inner_acc, target_shape=[B, M, K2])
            bias_reg = tkw.read(bias)
            x_j = x_j + bias_reg
            m_j = tkw.max(x_j, partial_max, dim=K2)
            e_delta_max = tkw.exp2(partial_max - m_j)
            e_delta = tkw.exp2(x_j - m_j)
            e_init = partial_sum * e_delta_max
            d_j = tkw.sum(e_delta, e_init, dim=K2)
            imm_f16 = tkw.cast(e_delta, tkl.f16)
            v_reg = tkw.read(v)
            new_acc = acc * e_delta_max
            acc = tkw.mma(v_reg, imm_f16, new_acc)
            return m_j, d_j, acc

        res_max, res_sum, res_mm = repeat
        reciprocal_sum = tkw.reciprocal(res_sum)
        res = res_mm * reciprocal_sum
        tkw.write(res, c, mapping=mapping)

    hyperparams = {ADDRESS_SPACE: SHARED_ADDRESS_SPACE, BLOCK_B: 1, BLOCK_M: 128, BLOCK_N: 64, BLOCK_K2: 64,
                   B: shape[0], M: shape[1], N: shape[2], K1: shape[3], K2: shape[4]}
    hyperparams.update(get_default_scheduling_params())
    dynamic_symbols = []
    if dynamic_dims:
        dynamic_symbols = [M, N, B, K2]
        for s_ in dynamic_symbols:
            del hyperparams[s_]
    options = WaveCompileOptions(subs=hyperparams, schedule=enable_scheduling, dynamic_symbols=dynamic_symbols,
                                 run_bench=run_bench, waves_per_eu=2, denorm_fp_math_f32="preserve-sign",
                                 benchmark_batch_size=10, benchmark_repetitions=3,
                                 benchmark_results_file=perf_filename_tk)
    options = set_default_run_config(options)
    base_attention_bias = wave_compile(options, base_attention_bias)
    q = device_randn(shape[0], shape[1], shape[3], dtype=np.float16)
    k = device_randn(shape[0], shape[4], shape[3], dtype=np.float16)
    v = device_randn(shape[0], shape[4], shape[2], dtype=np.float16)
    bias = device_randn(shape[0], shape[1], shape[4], dtype=np.float32)
    output = device_zeros(shape[0], shape[1], shape[2], dtype=np.float32)
    log2e = 1.44269504089
    dk_sqrt = math.sqrt(1.0 / shape[3])
    base_attention_bias(q * dk_sqrt * log2e, k, v.transpose([0, 2, 1]), bias * log2e, output)
    a = np.matmul(q.astype(np.float32), k.astype(np.float32).transpose(0, 2, 1)) * dk_sqrt
    a += bias
    a = np.exp(a - a.max(-1, keepdims=True))
    ref = np.matmul(a / a.sum(-1, keepdims=True), v.astype(np.float32))
    assert_close(output, ref, atol=2e-3, rtol=5e-3, check_dtype=False)


# ---- tests/kernel/e2e/test_copy.py (the water + waveasm pipeline: Wave's backends, options wavecc accepts) ----

def test_copy_water_waveasm(shape, run_bench=False, dynamic=False):
    from wave_e2e import get_copy_template
    options, test = get_copy_template(shape, run_bench=run_bench, use_water_backend=True, use_buffer_ops=True,
                                      use_dynamic_dims=dynamic)
    options = set_default_run_config(options)
    options.backend = "asm"
    test = wave_compile(options, test)
    a = device_randn(shape, dtype=np.float16)
    b = device_zeros(shape, dtype=np.float16)
    test(a, b)
    assert_close(a, b)


# ---- tests/kernel/reordered_gemm_test.py ----

def testVariousDtypeReorderedGemm(shape, enable_scheduling, mfma_variant, torch_dtype, run_bench=False,
                                  perf_filename_tk=None, perf_filename_iree=None):
    from wavecc.wave_lang.kernel.wave.templates.reordered_gemm import get_reordered_matmul
    from wavecc.wave_lang.kernel.wave.iree_utils import generate_iree_ref
    import wavecc
    M, N, K = shape
    BLOCK_M, BLOCK_N, BLOCK_K = 128, 256, 64
    GROUP_SIZE_M = 16
    reordered_gemm, hyperparams = get_reordered_matmul(M, N, K, BLOCK_M, BLOCK_N, BLOCK_K, GROUP_SIZE_M,
                                                       mfma_variant, input_dtype=torch_dtype,
                                                       output_dtype=torch_dtype)
    options = WaveCompileOptions(subs=hyperparams, canonicalize=True, run_bench=run_bench,
                                 schedule=enable_scheduling, benchmark_batch_size=10, benchmark_repetitions=3,
                                 use_buffer_ops=True, benchmark_results_file=perf_filename_tk)
    options = set_default_run_config(options)
    reordered_gemm = wave_compile(options, reordered_gemm)
    a = device_randn(shape[0], shape[2], dtype=torch_dtype)
    b = device_randn(shape[1], shape[2], dtype=torch_dtype)
    c = device_zeros(shape[0], shape[1], dtype=torch_dtype)
    reordered_gemm(a, b, c)
    iree_ref = device_zeros(shape[0], shape[1], dtype=np.float32)
    generate_iree_ref("mmt", [a, b], [iree_ref], options)
    if torch_dtype == np.float16:
        assert_close(c, iree_ref.astype(np.float16))
    else:  # bf16 bits: torch's bf16 tolerances (1e-5 + 1.6e-2 relative)
        assert_close(wavecc.from_bf16(c), wavecc.from_bf16(wavecc.to_bf16(iree_ref)), atol=1e-5, rtol=1.6e-2)


# ---- examples/python/6.4_schedule.py (Wave's manual schedule: accepted, not applied; its postprocess warns) ----

def test_attention_manual_schedule(heads=2, seq_q=128, seq_kv=128, head_size=64, is_debug=False):
    import math
    import warnings
    from wavecc.wave_lang.kernel.wave.schedules.attention_prefetch import get_attention_prefetch_schedule
    from wavecc.wave_lang.kernel.wave.templates.attention_common import AttentionShape
    from wavecc.wave_lang.kernel.wave.templates.tagged_attention import get_tagged_bshd_attention_kernel
    shape = AttentionShape(num_query_heads=heads, num_kv_heads=heads, query_seq_len=seq_q, head_size_kv=head_size,
                           head_size=head_size, kv_seq_len=seq_kv)
    mfma_variant = (tkw.MMAType.F32_16x16x16_F16,) * 2
    tagged_attention, hyperparams, _ = get_tagged_bshd_attention_kernel(
        shape, mfma_variant, dynamic_dims=False, is_causal=False, num_waves=8)
    hyperparams.update(get_default_scheduling_params())
    UNROLL_FACTOR = tkl.sym.UNROLL_FACTOR
    hyperparams[UNROLL_FACTOR] = 4
    attention_prefetch_schedule = get_attention_prefetch_schedule()
    options = WaveCompileOptions(
        subs=hyperparams,
        canonicalize=True,
        schedule=SchedulingType.MANUAL,
        use_global_to_shared=True,
        print_ir_after="all" if is_debug else [],
        use_buffer_ops=True,
        postprocess="""
        module attributes {transform.with_named_sequence} {
            transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
                %0 = transform.structured.match ops{["scf.for"]} in %arg0 : (!transform.any_op) -> !transform.any_op
                transform.loop.unroll %0 { factor = %%UNROLL_FACTOR%% } : !transform.any_op
                transform.yield
            }
        }
        """,
        linearize_shared_access=False,
    )
    options = set_default_run_config(options)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        compiled_attention = wave_compile(options, tagged_attention, attention_prefetch_schedule)
    said = " ".join(str(x.message) for x in w)
    assert "manual schedule" in said and "postprocess" in said, said
    batch = 1
    q = np.random.randn(batch, seq_q, heads, head_size).astype(np.float16)
    k = np.random.randn(batch, seq_kv, heads, head_size).astype(np.float16)
    v = np.random.randn(batch, seq_kv, heads, head_size).astype(np.float16)
    c = np.zeros((batch, seq_q, heads, head_size), dtype=np.float32)
    compiled_attention(q, k, v, c)
    log2e = 1.44269504089
    scale = math.sqrt(1.0 / head_size) * log2e
    q_t, k_t, v_t = (x.astype(np.float32).transpose(0, 2, 1, 3) for x in (q, k, v))
    s = np.matmul(q_t, np.swapaxes(k_t, -1, -2)) * scale * math.log(2)
    p = np.exp(s - s.max(-1, keepdims=True))
    expected = np.matmul(p / p.sum(-1, keepdims=True), v_t).transpose(0, 2, 1, 3)
    assert_close(c, expected, atol=1e-3, rtol=1e-3)


# ---- examples/python/6.1_schedule.py (the scheduling symbols from global_symbols' star import) ----

def test_default_gemm_prefetch(is_debug=False):
    from wavecc.wave_lang.kernel.lang.wave_types import Memory, Register
    M = tkl.sym.M
    N = tkl.sym.N
    K = tkl.sym.K
    BLOCK_M = tkl.sym.BLOCK_M
    BLOCK_N = tkl.sym.BLOCK_N
    BLOCK_K = tkl.sym.BLOCK_K
    ADDRESS_SPACE_A = tkl.sym.ADDRESS_SPACE_A
    ADDRESS_SPACE_B = tkl.sym.ADDRESS_SPACE_B
    ADDRESS_SPACE_C = tkl.sym.ADDRESS_SPACE_C
    constraints = [
        tkw.WorkgroupConstraint(M, BLOCK_M, 0),
        tkw.WorkgroupConstraint(N, BLOCK_N, 1),
        tkw.TilingConstraint(K, BLOCK_K),
        tkw.WaveConstraint(M, BLOCK_M / 4),
        tkw.WaveConstraint(N, BLOCK_N / 2),
        tkw.HardwareConstraint(threads_per_wave=64, mma_type=tkw.MMAType.F32_16x16x16_F16),
    ]

    @tkw.wave(constraints)
    def wave_kernel(
        a: Memory[M, K, ADDRESS_SPACE_A, tkl.f16],
        b: Memory[N, K, ADDRESS_SPACE_B, tkl.f16],
        c: Memory[M, N, ADDRESS_SPACE_C, tkl.f32],
    ):
        c_reg = Register[M, N, tkl.f32](0.0)

        @tkw.iterate(K, init_args=[c_reg])
        def repeat(acc: Register[M, N, tkl.f32]) -> Register[M, N, tkl.f32]:
            a_reg = tkw.read(a)
            b_reg = tkw.read(b)
            acc = tkw.mma(a_reg, b_reg, acc)
            return acc

        tkw.write(repeat, c)

    m, n, k = 128, 256, 256
    np.random.seed(0)
    a = np.random.randn(m, k).astype(np.float16)
    b = np.random.randn(n, k).astype(np.float16)
    c = np.zeros((m, n), dtype=np.float32)
    hyperparams = {
        ADDRESS_SPACE_A: SHARED_ADDRESS_SPACE, ADDRESS_SPACE_B: SHARED_ADDRESS_SPACE,
        ADDRESS_SPACE_C: GLOBAL_ADDRESS_SPACE, M: m, N: n, K: k, BLOCK_M: 128, BLOCK_N: 256, BLOCK_K: 64,
        READ_SHARED_DELAY: 1, WRITE_SHARED_DELAY: 1, READ_GLOBAL_DELAY: 2, WRITE_GLOBAL_DELAY: 2,  # noqa: F405
        MMA_DELAY: 1, VALU_DELAY: 1, SHUFFLE_DELAY: 1, SHARED_MEMORY_UNITS: 4, GLOBAL_MEMORY_UNITS: 4,  # noqa: F405
        MMA_UNITS: 4, VALU_UNITS: 8, SHUFFLE_UNITS: 8,  # noqa: F405
    }
    options = WaveCompileOptions(subs=hyperparams, schedule=SchedulingType.PREFETCH,
                                 print_ir_after="all" if is_debug else [])
    options = set_default_run_config(options)
    compiled_gemm = wave_compile(options, wave_kernel)
    compiled_gemm(a, b, c)
    expected = np.matmul(a.astype(np.float32), b.astype(np.float32).T)
    assert np.allclose(c, expected, rtol=1e-2, atol=1e-2), np.abs(c - expected).max()


# ---- examples/python/5_gemm.py (its imports: _support.dtype, _support.indexing.sym, lang.wave_types) ----

def test_gemm_select_expert(is_debug=False):
    from wavecc.wave_lang.kernel._support.dtype import f16, f32, i32
    from wavecc.wave_lang.kernel._support.indexing import sym
    from wavecc.wave_lang.kernel.lang.wave_types import Memory, Register
    M, N, K = sym.M, sym.N, sym.K
    BLOCK_M, BLOCK_N, BLOCK_K = sym.BLOCK_M, sym.BLOCK_N, sym.BLOCK_K
    ADDRESS_SPACE_A, ADDRESS_SPACE_B, ADDRESS_SPACE_C = sym.ADDRESS_SPACE_A, sym.ADDRESS_SPACE_B, sym.ADDRESS_SPACE_C
    E = sym.E
    constraints = [
        tkw.WorkgroupConstraint(M, BLOCK_M, 0),
        tkw.WorkgroupConstraint(N, BLOCK_N, 1),
        tkw.TilingConstraint(K, BLOCK_K),
        tkw.WaveConstraint(M, BLOCK_M / 2),
        tkw.WaveConstraint(N, BLOCK_N / 2),
        tkw.HardwareConstraint(threads_per_wave=64, mma_type=tkw.MMAType.F32_16x16x16_F16, vector_shapes={E: E}),
    ]
    i = tkw.IndexMapping.iterator(0)
    j = tkw.IndexMapping.iterator(1)
    mapping = tkw.IndexMapping(num_iterators=2, inputs={E: sympy.Integer(1), N: i, K: j}, outputs={N: i, K: j})

    @tkw.wave(constraints)
    def wave_kernel(
        a: Memory[M, K, ADDRESS_SPACE_A, f16],
        b: Memory[E, N, K, ADDRESS_SPACE_B, f16],
        c: Memory[M, N, ADDRESS_SPACE_C, f32],
    ):
        c_reg = Register[M, N, f32](0.0)

        @tkw.iterate(K, init_args=[c_reg])
        def repeat(acc: Register[M, N, f32]) -> Register[M, N, f32]:
            a_reg = tkw.read(a)
            b_reg = tkw.read(b, mapping=mapping)
            acc = tkw.mma(a_reg, b_reg, acc)
            return acc

        tkw.write(repeat, c)

    m, n, k = 64, 64, 128
    e = 8
    np.random.seed(0)
    a = np.random.randn(m, k).astype(np.float16)
    b = np.random.randn(e, n, k).astype(np.float16)
    c = np.zeros((m, n), dtype=np.float32)
    hyperparams = {ADDRESS_SPACE_A: SHARED_ADDRESS_SPACE, ADDRESS_SPACE_B: SHARED_ADDRESS_SPACE,
                   ADDRESS_SPACE_C: GLOBAL_ADDRESS_SPACE, BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32,
                   M: m, N: n, K: k, E: e}
    options = WaveCompileOptions(subs=hyperparams)
    options = set_default_run_config(options)
    compiled_gemm = wave_compile(options, wave_kernel)
    compiled_gemm(a, b, c)
    expected = np.matmul(a.astype(np.float32), b[1].astype(np.float32).T).astype(np.float16)
    assert np.allclose(c.astype(np.float16), expected, rtol=1e-2, atol=1e-2), np.abs(c - expected).max()

    IDX = sym.IDX
    mapping = tkw.IndexMapping(num_iterators=2, inputs={E: IDX, N: i, K: j}, outputs={N: i, K: j})

    @tkw.wave(constraints)
    def wave_kernel(  # noqa: F811
        a: Memory[M, K, ADDRESS_SPACE_A, f16],
        b: Memory[E, N, K, ADDRESS_SPACE_B, f16],
        idx: i32,
        c: Memory[M, N, ADDRESS_SPACE_C, f32],
    ):
        c_reg = Register[M, N, f32](0.0)
        tkw.set_symbol(IDX, idx)

        @tkw.iterate(K, init_args=[c_reg])
        def repeat(acc: Register[M, N, f32]) -> Register[M, N, f32]:
            a_reg = tkw.read(a)
            b_reg = tkw.read(b, mapping=mapping)
            acc = tkw.mma(a_reg, b_reg, acc)
            return acc

        tkw.write(repeat, c)

    c = np.zeros((m, n), dtype=np.float32)
    hyperparams = {ADDRESS_SPACE_A: GLOBAL_ADDRESS_SPACE, ADDRESS_SPACE_B: GLOBAL_ADDRESS_SPACE,
                   ADDRESS_SPACE_C: GLOBAL_ADDRESS_SPACE, BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32,
                   M: m, N: n, K: k, E: e}
    options = WaveCompileOptions(subs=hyperparams)
    options = set_default_run_config(options)
    compiled_gemm = wave_compile(options, wave_kernel)
    compiled_gemm(a, b, 1, c)
    assert np.allclose(c.astype(np.float16), expected, rtol=1e-2, atol=1e-2), np.abs(c - expected).max()
    compiled_gemm(a, b, 5, c)
    expected5 = np.matmul(a.astype(np.float32), b[5].astype(np.float32).T).astype(np.float16)
    assert np.allclose(c.astype(np.float16), expected5, rtol=1e-2, atol=1e-2), np.abs(c - expected5).max()


def test_gemm_reordered_input(is_debug=False):
    from wavecc.wave_lang.kernel._support.dtype import f16, f32, i32
    from wavecc.wave_lang.kernel._support.indexing import sym
    from wavecc.wave_lang.kernel.lang.wave_types import Memory, Register
    M, N, K = sym.M, sym.N, sym.K
    BLOCK_M, BLOCK_N, BLOCK_K = sym.BLOCK_M, sym.BLOCK_N, sym.BLOCK_K
    ADDRESS_SPACE_A, ADDRESS_SPACE_B, ADDRESS_SPACE_C = sym.ADDRESS_SPACE_A, sym.ADDRESS_SPACE_B, sym.ADDRESS_SPACE_C
    E = sym.E
    constraints = [
        tkw.WorkgroupConstraint(M, BLOCK_M, 0),
        tkw.WorkgroupConstraint(N, BLOCK_N, 1),
        tkw.WorkgroupConstraint(E, E, 2),
        tkw.TilingConstraint(K, BLOCK_K),
        tkw.WaveConstraint(M, BLOCK_M / 2),
        tkw.WaveConstraint(N, BLOCK_N / 2),
        tkw.HardwareConstraint(threads_per_wave=64, mma_type=tkw.MMAType.F32_16x16x16_F16,
                               vector_shapes={E: E, M: 16, K: 16}),
    ]
    i = tkw.IndexMapping.iterator(0)
    j = tkw.IndexMapping.iterator(1)
    d0 = tkw.IndexMapping.dynamic_val(0)
    IDX = sym.IDX
    mapping = tkw.IndexMapping(num_iterators=2, inputs={E: IDX, N: i, K: j}, outputs={N: i, K: j})
    a_read_map = tkw.IndexMapping(num_iterators=2, inputs={M: d0, K: j}, outputs={M: i, K: j},
                                  dynamic_val_mappings={M: i})

    @tkw.wave(constraints)
    def wave_kernel(
        a: Memory[M, K, ADDRESS_SPACE_A, f16],
        b: Memory[E, N, K, ADDRESS_SPACE_B, f16],
        reorder_a: Memory[M, ADDRESS_SPACE_A, i32],
        a_back: Memory[M, K, ADDRESS_SPACE_A, f16],
        c: Memory[M, N, ADDRESS_SPACE_C, f32],
        idx: i32,
    ):
        c_reg = Register[M, N, f32](0.0)
        a_reg = Register[M, K, f16](0.0)  # noqa: F841
        tkw.set_symbol(IDX, idx)

        @tkw.iterate(K, init_args=[c_reg])
        def repeat(acc: Register[M, N, f32]) -> Register[M, N, f32]:
            reordered_idx = tkw.read(reorder_a, elements_per_thread=1)
            a_reg = tkw.read(a, mapping=a_read_map, mapping_dynamic_vals=(reordered_idx,))
            b_reg = tkw.read(b, mapping=mapping)
            acc = tkw.mma(a_reg, b_reg, acc)
            tkw.write(a_reg, a_back)
            return acc

        tkw.write(repeat, c)

    m, n, k = 64, 64, 128
    e = 8
    np.random.seed(0)
    a = np.random.randn(m, k).astype(np.float16)
    a_back = np.zeros((m, k), dtype=np.float16)
    b = np.random.randn(e, n, k).astype(np.float16)
    c = np.zeros((m, n), dtype=np.float32)
    reorder_a = np.random.permutation(m).astype(np.int32)
    hyperparams = {ADDRESS_SPACE_A: GLOBAL_ADDRESS_SPACE, ADDRESS_SPACE_B: GLOBAL_ADDRESS_SPACE,
                   ADDRESS_SPACE_C: GLOBAL_ADDRESS_SPACE, BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32,
                   M: m, N: n, K: k, E: e}
    options = WaveCompileOptions(subs=hyperparams, print_ir_after="all" if is_debug else [])
    options = set_default_run_config(options)
    compiled_gemm = wave_compile(options, wave_kernel)
    compiled_gemm(a, b, reorder_a, a_back, c, 1)
    reordered_a = a[reorder_a]
    assert np.allclose(a_back, reordered_a, rtol=1e-2, atol=1e-2)
    expected = np.matmul(reordered_a.astype(np.float32), b[1].astype(np.float32).T).astype(np.float16)
    assert np.allclose(c.astype(np.float16), expected, rtol=1e-2, atol=1e-2), np.abs(c - expected).max()


# ---- tests/kernel/wave_utils_test.py (the helpers a user program imports) ----

def test_delinearize_index():
    from wavecc.wave_lang.kernel.lang import sym
    from wavecc.wave_lang.kernel.wave.utils.general_utils import delinearize_index
    M = sym.M
    shape = [5, 4, 3]
    nd_index = delinearize_index(M, shape)
    np_nd_index = np.unravel_index(23, shape)
    assert np.equal([x.subs({M: 23}) for x in nd_index], np_nd_index).all()


def test_divide_shape_into_chunks():
    from wavecc.wave_lang.kernel.wave.utils.general_utils import divide_shape_into_chunks, torch_dtype_range
    for shape, n, per_dim, chunk in (([128, 256], 8, [8, 1], [16, 256]), ([128, 256], 1, [1, 1], [128, 256]),
                                     ([128, 256], 16, [16, 1], [8, 256]), ([64, 128, 256], 8, [8, 1, 1], [8, 128, 256]),
                                     ([6, 10], 15, [3, 5], [2, 2]), ([4, 8, 16], 8, [4, 2, 1], [1, 4, 16]),
                                     ([6, 4, 2], 48, [6, 4, 2], [1, 1, 1]), ([35, 100], 5, [5, 1], [7, 100])):
        assert divide_shape_into_chunks(shape, n) == (per_dim, chunk), (shape, n)
    for shape, n in (([128, 256], 12 * 1024), ([7], 2), ([4], 0)):
        try:
            divide_shape_into_chunks(shape, n)
        except ValueError:
            pass
        else:
            raise AssertionError((shape, n))
    assert torch_dtype_range(np.float16) == [-65504.0, 65504.0]
    assert torch_dtype_range(tkl.bf16)[1] > 3e38 and torch_dtype_range("int8") == [-128, 127]
    from wavecc.wave_lang.kernel.wave.cache import is_cache_enabled
    assert is_cache_enabled() is False


# ---- WaveCompileOptions fields Wave's tests set, and rejections at the op's Python line ----

def _copy_kernel():
    M = tkl.sym.M
    N = tkl.sym.N
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    constraints = _row_kernel_constraints((16, 64), M, N)

    @tkw.wave(constraints)
    def copy(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[M, N, GLOBAL_ADDRESS_SPACE, tkl.f16]):
        tkw.write(tkw.read(a), b)
    return copy, {M: 16, N: 64, ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE}


def options_accepted():
    """The options that do not change what a kernel computes are taken (and the kernel runs); print_mlir prints
    the assembly in place of Wave's MLIR."""
    import contextlib
    import io
    from wavecc.wave_lang.kernel.wave.scheduling.schedule import SchedulingType as ST
    kernel, subs = _copy_kernel()
    options = WaveCompileOptions(
        subs=subs, canonicalize=True, run_bench=False, waves_per_eu=2, denorm_fp_math_f32="preserve-sign",
        use_buffer_ops=True, schedule=ST.NONE, use_scheduling_barriers=True, dynamic_symbols=[], wave_runtime=True,
        iree_launch_async=False, compile_to_mlir=False, backend="asm", use_water_backend=False, minimize_shared_allocs=False,
        print_ir_after=[], print_ir_before=[], print_grid=False, print_signature=False, func_name="copy_bench",
        location_capture_config=None, use_local_scope=True, optimization_level=True, linearize_shared_access=True,
        scalarize_packed_math=True, enable_swizzle=False, check_water_analysis=False, print_mlir=True)
    options = set_default_run_config(options)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        k = wave_compile(options, kernel)
    assert "s_endpgm" in out.getvalue(), out.getvalue()[:200]
    a = device_randn((16, 64), dtype=np.float16)
    b = device_zeros((16, 64), dtype=np.float16)
    k(a, b)
    assert_close(b, a)


def options_refused():
    """Options that edit Wave's MLIR cannot be honoured: refused, naming the option and the kernel's line."""
    import wavecc
    for field, value in (("override_mlir", "module {}"), ("edit_ir_after", "x.mlir"), ("codeobj", "4")):
        kernel, subs = _copy_kernel()
        try:
            wave_compile(WaveCompileOptions(subs=subs, **{field: value}), kernel)
        except wavecc.WaveccError as e:
            assert field in str(e) and "wave_more.py:" in str(e), e
        else:
            raise AssertionError("options.%s accepted" % field)


def _rejected_at(fn, text):
    """fn() raises a wavecc error whose message starts at this file's line of the op and contains text."""
    import wavecc
    try:
        fn()
    except wavecc.WaveccError as e:
        msg = str(e)
        assert msg.split(":")[0].endswith("wave_more.py"), msg
        assert text in msg, msg
        return int(msg.split(":")[1])
    raise AssertionError("not rejected")


def rejections_name_the_line():
    """A few kernels wavecc cannot make correct, each rejected with a Python exception naming the op's line."""
    M = tkl.sym.M
    N = tkl.sym.N
    K = tkl.sym.K
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    subs = {M: 64, N: 64, K: 64, ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE}
    constraints = _row_kernel_constraints((64, 64), M, N)

    @tkw.wave(constraints)
    def reshaped(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16]):
        x = tkw.read(a)
        tkw.write(tkw.reshape([x], target_vector_shape={M: 1, N: 64}), b)  # the reshape line
    line = _rejected_at(lambda: wave_compile(WaveCompileOptions(subs=subs), reshaped), "reshape")
    assert "the reshape line" in open(__file__).read().splitlines()[line - 1]

    @tkw.wave(constraints)
    def bad_permute(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[N, M, ADDRESS_SPACE, tkl.f16]):
        x = tkw.read(a)
        tkw.write(tkw.permute(x, target_shape=[M]), b)  # the permute line
    line = _rejected_at(lambda: wave_compile(WaveCompileOptions(subs=subs), bad_permute), "permute")
    assert "the permute line" in open(__file__).read().splitlines()[line - 1]

    gemm_c = [tkw.WorkgroupConstraint(M, 64, 0), tkw.WorkgroupConstraint(N, 64, 1), tkw.TilingConstraint(K, 16),
              tkw.WaveConstraint(M, 32), tkw.WaveConstraint(N, 32),
              tkw.HardwareConstraint(threads_per_wave=64, mma_type=MMAType.F32_16x16x16_F16)]

    @tkw.wave(gemm_c)
    def gemm_kn(a: tkl.Memory[M, K, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[M, K, ADDRESS_SPACE, tkl.f16],
                c: tkl.Memory[M, N, GLOBAL_ADDRESS_SPACE, tkl.f32]):
        c_reg = tkl.Register[M, N, tkl.f32](0.0)

        @tkw.iterate(K, init_args=[c_reg])
        def repeat(acc: tkl.Register[M, N, tkl.f32]) -> tkl.Register[M, N, tkl.f32]:
            return tkw.mma(tkw.read(a), tkw.read(b), acc)  # the mma line
        tkw.write(repeat, c)
    line = _rejected_at(lambda: wave_compile(WaveCompileOptions(subs=subs), gemm_kn), "mma")
    assert "the mma line" in open(__file__).read().splitlines()[line - 1]

    @tkw.wave(constraints)
    def bad_dtype(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.i32]):
        x = tkw.read(a)
        y = tkw.read(b)
        tkw.write(x + y, b)  # the add line
    line = _rejected_at(lambda: wave_compile(WaveCompileOptions(subs=subs), bad_dtype), "f16")
    assert "the add line" in open(__file__).read().splitlines()[line - 1]

    @tkw.wave(constraints)
    def gfx950_only(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16]):
        x = tkw.read(a)
        tkw.write(tkw.bounds_check(x), b)  # the bounds_check line
    if hasattr(tkw, "bounds_check"):
        line = _rejected_at(lambda: wave_compile(WaveCompileOptions(subs=subs), gfx950_only), "bounds_check")
        assert "the bounds_check line" in open(__file__).read().splitlines()[line - 1]


# ---- runner ----

def tests():
    return [
        _case(test_cast, (256, 64)),
        _case(test_vector_add, (1, 27), False), _case(test_vector_add, (111, 813), True),
        _case(test_broadcast_scaled_add, (256, 256)),
        _case(test_read_write_same, (111, 813), True),
        _case(test_offset_read, (256, 64), False),
        _case(test_set_symbol, (1, 128)), _case(test_apply_expr, (111, 813)),
        _case(test_conditional, (256, 128)),
        _case(test_conditional_return, (1, 27), 2), _case(test_conditional_return, (1, 27), 50),
        _case(test_reduce_sum, (111, 813)), _case(test_block_reduce_sum, (1, 1024)),
        _case(test_toy_online_softmax, (1, 27)),
        _case(test_scalar_codegen, (1, 27), tkl.i32, np.int32, (1, 2, 1, 3), False),
        _case(test_scalar_codegen, (111, 813), tkl.f32, np.float32, (1.0, 2.0, 1.0, 3.0), True),
        _case(test_transpose_read, (111, 813), False), _case(test_transpose_write, (256, 128), True),
        ("test_no_map_atomic_add", test_no_map_atomic_add), _case(test_dyn_atomic_add, (64, 4)), _case(test_dyn_atomic_add, (200, 7)),
        _case(test_bound_check_failure, (1, 27)),
        ("2_control_flow.test_iteration_with_condition", test_iteration_with_condition),
        ("4_reductions.test_reduce_sum", test_example_reduce_sum),
        ("4_reductions.test_broadcast_reduce_sum", test_broadcast_reduce_sum),
        ("wave_sim_test.test_eltwise", test_sim_eltwise), ("wave_sim_test.test_broadcast_1", test_sim_broadcast_1),
        ("wave_sim_test.test_broadcast_2", test_sim_broadcast_2),
        ("wave_sim_test.test_transpose_1", test_sim_transpose_1),
        ("wave_sim_test.test_transpose_2", test_sim_transpose_2),
        _case(testGemmBench, TMP),
        _case(testGemmSmallTiles, (32, 32, 32), SchedulingType.NONE, False, MMAType.F32_16x16x16_F16),
        _case(testGemmSmallTiles, (32, 32, 32), SchedulingType.NONE, True, MMAType.F32_32x32x8_F16),
        _case(testCDNA2IntGemm, (64, 128, 64), SchedulingType.NONE, False, MMAType.I32_16x16x16_I8),
        _case(testBatchedGemm, (2, 64, 64, 64), SchedulingType.NONE, MMAType.F32_16x16x16_F16),
        _case(testSequentialBatchedGemm, (2, 64, 64, 64), SchedulingType.NONE, MMAType.F32_16x16x16_F16),
        _case(testBatchedGemmWithPermute, (2, 64, 64, 32), SchedulingType.NONE, MMAType.F32_16x16x16_F16),
        _case(testPingPongGemm, (128, 256, 128), MMAType.F32_16x16x16_F16),
        _case(testTransposedVAttentionPure, (2, 64, 64, 64, 64), SchedulingType.NONE, False,
              (MMAType.F32_16x16x16_F16, MMAType.F32_16x16x16_F16)),
        _case(testAttentionPure, (2, 64, 64, 64, 128), SchedulingType.NONE, False,
              (MMAType.F32_16x16x32_K8_F16, MMAType.F32_16x16x16_F16), False),
        _case(test_copy_water_waveasm, (1, 27)), _case(test_copy_water_waveasm, (256, 64), dynamic=True),
        _case(testVariousDtypeReorderedGemm, (256, 256, 256), SchedulingType.PREFETCH, MMAType.F32_16x16x16_F16,
              tkl.bf16),
        ("6.4_schedule.test_attention_manual_schedule", test_attention_manual_schedule),
        _case(testAttentionCausal, (2, 64, 64, 64, 128), SchedulingType.NONE, 20, False,
              (MMAType.F32_16x16x16_F16, MMAType.F32_16x16x16_F16)),
        _case(testAttentionBSHD, (2, 64, 64, 64, 128), SchedulingType.NONE, False,
              (MMAType.F32_16x16x32_K8_F16, MMAType.F32_16x16x16_F16)),
        _case(testAttentionBHSDCausal, (1, 2, 128, 128, 128, 128), SchedulingType.NONE, False,
              (MMAType.F32_16x16x16_F16, MMAType.F32_16x16x16_F16)),
        _case(testAttentionBias, (2, 128, 64, 64, 128), SchedulingType.NONE, False, MMAType.F32_16x16x16_F16),
        ("5_gemm.test_gemm_select_expert", test_gemm_select_expert),
        ("5_gemm.test_gemm_reordered_input", test_gemm_reordered_input),
        ("wave_utils_test.test_delinearize_index", test_delinearize_index),
        ("wave_utils_test.test_divide_shape_into_chunks", test_divide_shape_into_chunks),
        ("WaveCompileOptions fields accepted", options_accepted),
        ("WaveCompileOptions MLIR edits refused", options_refused),
        ("rejections name the op's Python line", rejections_name_the_line),
        _case(test_igemm_conv, 2, 3, 2, 2), _case(test_igemm_conv, 1, 10, 8, 1), _case(test_igemm_conv, 4, 1, 1, 3),
    ]


def slow_tests():
    return [
        _case(test_vector_add, (256, 1024), False), _case(test_read_write_same, (1, 27), False),
        _case(test_offset_read, (111, 813), True), _case(test_set_symbol, (256, 256)),
        _case(test_conditional, (111, 813)), _case(test_reduce_sum, (256, 1024)),
        _case(test_block_reduce_sum, (111, 813)), _case(test_toy_online_softmax, (111, 813)),
        _case(test_transpose_read, (256, 1024), True), _case(test_transpose_write, (111, 813), False),
        _case(test_scalar_codegen, (111, 813), tkl.i32, np.int32, (1, 2, 1, 3), True),
        _case(test_dyn_atomic_add, (1000, 16)),
        _case(test_igemm_conv, 4, 10, 8, 3), _case(test_igemm_conv, 1, 1, 1, 1),
        _case(testGemmSmallTiles, (100, 70, 96), SchedulingType.NONE, True, MMAType.F32_16x16x16_F16),
        _case(testCDNA2IntGemm, (128, 128, 64), SchedulingType.MODULO, True, MMAType.I32_32x32x8_I8),
        _case(testBatchedGemm, (8, 256, 128, 192), SchedulingType.MODULO, MMAType.F32_16x16x16_F16),
        _case(testSequentialBatchedGemm, (4, 128, 64, 96), SchedulingType.NONE, MMAType.F32_16x16x16_F16),
        _case(testBatchedGemmWithPermute, (8, 256, 128, 192), SchedulingType.NONE, MMAType.F32_16x16x16_F16),
        _case(testPingPongGemm, (256, 512, 256), MMAType.F32_32x32x8_F16),
        _case(testTransposedVAttentionPure, (2, 128, 64, 64, 256), SchedulingType.MODULO, True,
              (MMAType.F32_32x32x16_K8_F16, MMAType.F32_32x32x8_F16)),
        _case(testAttentionPure, (2, 128, 64, 64, 256), SchedulingType.NONE, False,
              (MMAType.F32_32x32x8_F16, MMAType.F32_32x32x8_F16), True),
        _case(testVariousDtypeReorderedGemm, (256, 256, 256), SchedulingType.PREFETCH, MMAType.F32_16x16x16_F16,
              np.float16),
        ("6.1_schedule.test_default_gemm_prefetch", test_default_gemm_prefetch),
    ]


def main():
    from run_tests import run_cases
    only = sys.argv[1] if len(sys.argv) > 1 else ""
    cases = [c for c in tests() + slow_tests() if only in c[0]]
    failed = run_cases(cases)
    print("%d of %d passed" % (len(cases) - failed, len(cases)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
