"""wave_examples.py — kernels of Wave's examples/python/*.py and tests/kernel/e2e/*.py that the package had
gaps for, transcribed with only the imports changed (wave_lang -> wavecc.wave_lang) and torch tensors on a GPU
replaced by numpy arrays; Wave's examples only print their results, so the numpy references here are ours. Each
runs on the emulator (or on HIP when a GPU is there) and is checked; the traced JSON is checked where the gap was
in the translation. Also the runtime features of the compiled kernel: the backend fallback, profile(), warnings,
launch_info() and the diagnostics as data."""
import inspect
import json
import os
import warnings

import numpy as np
import sympy

import wavecc
import wavecc.wave_lang.kernel.lang as tkl
import wavecc.wave_lang.kernel.wave as tkw
import wavecc.wave_lang.kernel.wave.wave_schedule as wave_schedule
from wavecc.wave_lang.kernel._support.dtype import f16, f32, i32
from wavecc.wave_lang.kernel._support.indexing import sym
from wavecc.wave_lang.kernel.lang.global_symbols import *  # noqa: F401,F403
from wavecc.wave_lang.kernel.lang.global_symbols import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE
from wavecc.wave_lang.kernel.lang.wave_types import Memory, Register
from wavecc.wave_lang.kernel.wave.compile import WaveCompileOptions, wave_compile
from wavecc.wave_lang.kernel.wave.scheduling.schedule import SchedulingType
from wavecc.wave_lang.kernel.wave.utils.run_utils import set_default_run_config

M, N, K, B = tkl.sym.M, tkl.sym.N, tkl.sym.K, tkl.sym.B
BLOCK_M, BLOCK_N, BLOCK_K, BLOCK_B = tkl.sym.BLOCK_M, tkl.sym.BLOCK_N, tkl.sym.BLOCK_K, tkl.sym.BLOCK_B
LOAD_ELEMS_PER_THREAD = tkl.sym.LOAD_ELEMS_PER_THREAD
STORE_ELEMS_PER_THREAD = tkl.sym.STORE_ELEMS_PER_THREAD
ADDRESS_SPACE, ADDRESS_SPACE_0 = tkl.sym.ADDRESS_SPACE, tkl.sym.ADDRESS_SPACE_0


# ---- examples/python/1_dynamic_mapping.py ----

def get_wave_compile_options(m=16, n=16, k=16, block_m=16, block_n=16, block_k=16,
                             address_space=SHARED_ADDRESS_SPACE, canonicalize=False, dynamic_symbols=[],
                             additional_symbols={}, is_debug=False):
    bindings = {M: m, N: n, K: k, BLOCK_M: block_m, BLOCK_N: block_n, BLOCK_K: block_k,
                ADDRESS_SPACE: address_space}
    bindings.update(additional_symbols)
    for s in dynamic_symbols:
        if s in bindings:
            del bindings[s]
    return WaveCompileOptions(subs=bindings, canonicalize=canonicalize, dynamic_symbols=dynamic_symbols,
                              print_ir_after="all" if is_debug else [])


def dynamic_offset_0():
    """A scalar argument as a mapping's dynamic value (its dynamic_val_mappings name a dim it lacks)."""
    constraints = [tkw.HardwareConstraint(threads_per_wave=64, vector_shapes={N: 16})]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 1)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N)]
    j = tkw.IndexMapping.iterator(0)
    k = tkw.IndexMapping.dynamic_val(0)
    mapping = tkw.IndexMapping(num_iterators=1, inputs={N: (k + j) % 16}, outputs={N: j},
                               dynamic_val_mappings={N: j})

    @tkw.wave(constraints)
    def kernel(a: tkl.Memory[N, ADDRESS_SPACE, tkl.i32], off: tkl.i32, b: tkl.Memory[N, ADDRESS_SPACE, tkl.i32]):
        res = tkw.read(a, mapping=mapping, mapping_dynamic_vals=(off,))
        tkw.write(res, b)
    compiled_kernel = wave_compile(get_wave_compile_options(canonicalize=True), kernel)
    a = np.arange(0, 16, dtype=np.int32)
    for off in (1, 5):
        b = np.zeros((16,), dtype=np.int32)
        compiled_kernel(a, off, b)
        assert (b == np.roll(a, -off)).all(), b
    d = json.loads(compiled_kernel.json)
    assert d["graph"][0]["mapping"]["dynamic_val_mappings"] == [{}], d["graph"][0]["mapping"]
    # b is only written: written to global memory, as Wave writes it
    assert [x["address_space"] for x in d["arguments"] if x["type"] == "memory"] == ["ADDRESS_SPACE", "global"]


def dynamic_offset_1():
    ONE = tkl.sym.ONE
    constraints = [tkw.HardwareConstraint(threads_per_wave=64, vector_shapes={N: 16, ONE: 1})]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 1)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N)]
    j = tkw.IndexMapping.iterator(0)
    k = tkw.IndexMapping.dynamic_val(0)
    mapping = tkw.IndexMapping(num_iterators=1, inputs={N: k + j % 16}, outputs={N: j},
                               dynamic_val_mappings={ONE: j // 16})

    @tkw.wave(constraints)
    def kernel(a: tkl.Memory[N, ADDRESS_SPACE, tkl.i32], off: tkl.Memory[ONE, ADDRESS_SPACE, tkl.i32],
               b: tkl.Memory[N, ADDRESS_SPACE, tkl.i32]):
        offset = tkw.read(off)
        res = tkw.read(a, mapping=mapping, mapping_dynamic_vals=(offset,))
        tkw.write(res, b)
    compiled_kernel = wave_compile(get_wave_compile_options(canonicalize=True, additional_symbols={ONE: 1}), kernel)
    a = np.arange(0, 16, dtype=np.int32)
    off = np.ones((1,), dtype=np.int32)
    b = np.zeros((16,), dtype=np.int32)
    compiled_kernel(a, off, b)
    want = np.append(a[1:], 0)  # a[1 + j]; past the end a read gives 0
    assert (b == want).all(), b


def fixed_offset():
    ONE = tkl.sym.ONE
    constraints = [tkw.HardwareConstraint(threads_per_wave=64, vector_shapes={N: 16, ONE: 1})]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 1)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N)]
    j = tkw.IndexMapping.iterator(0)
    seq_len_mapping = tkw.IndexMapping(num_iterators=1, inputs={N: j}, outputs={N: j})
    seq_len_mapping_w = tkw.IndexMapping(num_iterators=1, inputs={N: j}, outputs={N: j + ONE})

    @tkw.wave(constraints)
    def kernel(a: tkl.Memory[N, ADDRESS_SPACE, tkl.i32], b: tkl.Memory[N, ADDRESS_SPACE, tkl.i32]):
        temp = tkw.Register[N, tkl.i32](0)  # noqa: F841 (as in Wave's example)
        temp = tkw.read(a, mapping=seq_len_mapping)
        tkw.write(temp, b, mapping=seq_len_mapping_w)
    compiled_kernel = wave_compile(get_wave_compile_options(canonicalize=True, additional_symbols={ONE: 1}), kernel)
    a = np.arange(0, 16, dtype=np.int32)
    b = np.zeros((16,), dtype=np.int32)
    compiled_kernel(a, b)
    assert (b == np.append(0, a[:15])).all(), b  # b[j + 1] = a[j]; the write past the end is dropped


# ---- examples/python/3_atomics.py ----

def atomic_add_return_value():
    """An unused symbol in vector_shapes (LIMIT_VAL, with no value) is ignored, as Wave ignores it."""
    LIMIT_VAL = tkl.sym.LIMIT_VAL
    constraints = [tkw.HardwareConstraint(threads_per_wave=64, waves_per_block=(1, 1, 1),
                                          vector_shapes={B: 0, M: 64, LIMIT_VAL: 0})]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M, 0)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M)]
    constraints += [tkw.TilingConstraint(B)]
    i = tkw.IndexMapping.iterator(0)
    simple_read_mapping = tkw.IndexMapping(num_iterators=1, inputs={M: i}, outputs={M: i})

    @tkw.wave(constraints)
    def wave_kernel(a: tkl.Memory[M, ADDRESS_SPACE, tkl.i32], c: tkl.Memory[M, ADDRESS_SPACE_0, tkl.i32]):
        one_reg = tkw.Register[M, tkl.i32](1)
        res = tkw.atomic_add(one_reg, a, mapping=simple_read_mapping)
        tkw.write(res, c)
    options = WaveCompileOptions(
        subs={M: 64, B: 10, BLOCK_M: 64, BLOCK_B: 1, LOAD_ELEMS_PER_THREAD: 4, STORE_ELEMS_PER_THREAD: 4,
              ADDRESS_SPACE: SHARED_ADDRESS_SPACE, ADDRESS_SPACE_0: GLOBAL_ADDRESS_SPACE},
        canonicalize=True)
    wave_kernel = wave_compile(options, wave_kernel)
    a = np.random.default_rng(3).integers(1, 5, (64,)).astype(np.int32)
    a0 = a.copy()
    c = np.zeros((64,), dtype=np.int32)
    wave_kernel(a, c)
    assert (c == a0).all() and (a == a0 + 1).all(), (a, c)
    hw = [x for x in json.loads(wave_kernel.json)["constraints"] if x["kind"] == "hardware"][0]
    assert "LIMIT_VAL" not in hw["vector_shapes"], hw


# ---- examples/python/4_reductions.py ----

def moe_weighted_sum():
    """3D weighted sum: 2D weights broadcast to 3D, multiplied, summed along the middle dim."""
    shape = (64, 64, 128)  # (B, K, D)
    B, K, D = tkl.sym.B, tkl.sym.K, tkl.sym.D
    wave_size = 64
    BLOCK_B = 1
    BLOCK_K = sympy.ceiling(shape[1] / wave_size) * wave_size
    BLOCK_D = 1
    constraints = [tkw.HardwareConstraint(threads_per_wave=64, vector_shapes={B: BLOCK_B, K: BLOCK_K, D: BLOCK_D})]
    constraints += [tkw.WorkgroupConstraint(B, BLOCK_B, 2)]
    constraints += [tkw.WorkgroupConstraint(K, BLOCK_K, 0)]
    constraints += [tkw.WorkgroupConstraint(D, BLOCK_D, 1)]
    constraints += [tkw.WaveConstraint(B, BLOCK_B)]
    constraints += [tkw.WaveConstraint(K, BLOCK_K)]
    constraints += [tkw.WaveConstraint(D, BLOCK_D)]

    @tkw.wave(constraints)
    def test(out: tkl.Memory[B, K, D, ADDRESS_SPACE, tkl.f16], topk_weights: tkl.Memory[B, K, ADDRESS_SPACE, tkl.f16],
             result: tkl.Memory[B, D, ADDRESS_SPACE, tkl.f16], temp_output: tkl.Memory[B, K, D, ADDRESS_SPACE, tkl.f16]):
        out_vals = tkw.read(out)
        weights = tkw.read(topk_weights)
        weights_broadcast = tkw.broadcast(weights, [B, K, D])
        weighted = out_vals * weights_broadcast
        tkw.write(weighted, temp_output)
        res = tkw.sum(weighted, dim=K)
        tkw.write(res, result)
    rng = np.random.default_rng(4)
    out = rng.standard_normal(shape).astype(np.float16)
    topk_weights = rng.standard_normal(shape[:2]).astype(np.float16)
    result = np.zeros((shape[0], shape[2]), np.float16)
    temp_output = np.zeros(shape, np.float16)
    ref_temp = out * topk_weights.reshape(shape[0], shape[1], 1)
    ref = ref_temp.astype(np.float32).sum(axis=1)
    options = WaveCompileOptions(subs={B: shape[0], K: shape[1], D: shape[2], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE},
                                 canonicalize=True)
    test = wave_compile(options, test)
    test(out, topk_weights, result, temp_output)
    np.testing.assert_allclose(temp_output.astype(np.float32), ref_temp.astype(np.float32), atol=0.1, rtol=1e-5)
    np.testing.assert_allclose(result.astype(np.float32), ref, atol=0.1, rtol=1e-5)


# ---- tests/kernel/e2e/test_atomic.py ----

def atomic_min():
    """Wave's atomics map like a read (outputs = the register's dims): the mapping's sides swap in the JSON."""
    shape = (2, 64)
    num_waves = 2
    BLOCK_M_, BLOCK_N_ = 2, 64
    constraints = [tkw.HardwareConstraint(threads_per_wave=64,
                                          vector_shapes={M: int(BLOCK_M_ / num_waves), N: BLOCK_N_})]
    constraints += [tkw.WorkgroupConstraint(M, BLOCK_M, 1)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 0)]
    constraints += [tkw.WaveConstraint(M, sympy.Integer(1))]
    constraints += [tkw.WaveConstraint(N, BLOCK_N)]
    i = tkw.IndexMapping.iterator(0)
    j = tkw.IndexMapping.iterator(1)
    mapping = tkw.IndexMapping(num_iterators=2, inputs={M: sympy.Integer(0), N: j}, outputs={M: i, N: j})
    read_mapping = tkw.IndexMapping(num_iterators=2, inputs={M: sympy.Integer(0), N: j}, outputs={M: i, N: j})

    @tkw.wave(constraints)
    def test(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.i32], c: tkl.Memory[M, N, ADDRESS_SPACE, tkl.i32]):
        res = tkw.read(a)
        shmem = tkw.allocate(shape=(M, N), distributed_shape=(1, BLOCK_N), dtype=tkl.i32,
                             address_space=SHARED_ADDRESS_SPACE)
        inf_reg = tkl.Register[M, N, tkl.i32](1e6)
        tkw.write(inf_reg, shmem)
        res = tkw.atomic_min(res, shmem, mapping=mapping)
        res = tkw.read(shmem, mapping=read_mapping)
        tkw.write(res, c)
    a = np.random.default_rng(7).integers(0, 10, shape).astype(np.int32)
    c = np.zeros(shape, np.int32)
    options = WaveCompileOptions(subs={M: shape[0], N: shape[1], ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE,
                                       BLOCK_M: BLOCK_M_, BLOCK_N: BLOCK_N_}, canonicalize=True)
    test = wave_compile(set_default_run_config(options), test)
    test(a, c)
    assert (c[0, :] == a.min(axis=0)).all() and (c[1, :] == a.min(axis=0)).all(), (a, c)
    node = [n for n in json.loads(test.json)["graph"] if n["op"] == "atomic_min"][0]
    assert node["mapping"]["inputs"] == {"M": "$index0", "N": "$index1"} and node["mapping"]["outputs"]["M"] == 0, node


# ---- examples/python/5_gemm.py ----

def gemm_dynamic_expert():
    """set_symbol on a symbol nothing binds (IDX) makes it a dynamic symbol."""
    E = sym.E
    ADDRESS_SPACE_A, ADDRESS_SPACE_B, ADDRESS_SPACE_C = sym.ADDRESS_SPACE_A, sym.ADDRESS_SPACE_B, sym.ADDRESS_SPACE_C
    constraints = [
        tkw.WorkgroupConstraint(M, BLOCK_M, 0), tkw.WorkgroupConstraint(N, BLOCK_N, 1),
        tkw.WorkgroupConstraint(E, E, 2), tkw.TilingConstraint(K, BLOCK_K),
        tkw.WaveConstraint(M, BLOCK_M / 2), tkw.WaveConstraint(N, BLOCK_N / 2),
        tkw.HardwareConstraint(threads_per_wave=64, mma_type=tkw.MMAType.F32_16x16x16_F16, vector_shapes={E: E}),
    ]
    i = tkw.IndexMapping.iterator(0)
    j = tkw.IndexMapping.iterator(1)
    IDX = sym.IDX
    mapping = tkw.IndexMapping(num_iterators=2, inputs={E: IDX, N: i, K: j}, outputs={N: i, K: j})
    a_read_map = tkw.IndexMapping(num_iterators=2, inputs={M: i, K: j}, outputs={M: i, K: j})

    @tkw.wave(constraints)
    def wave_kernel(a: Memory[M, K, ADDRESS_SPACE_A, f16], b: Memory[E, N, K, ADDRESS_SPACE_B, f16], idx: i32,
                    c: Memory[M, N, ADDRESS_SPACE_C, f32]):
        c_reg = Register[M, N, f32](0.0)
        tkw.set_symbol(IDX, idx)

        @tkw.iterate(K, init_args=[c_reg])
        def repeat(acc: Register[M, N, f32]) -> Register[M, N, f32]:
            a_reg = tkw.read(a, mapping=a_read_map)
            b_reg = tkw.read(b, mapping=mapping)
            acc = tkw.mma(a_reg, b_reg, acc)
            return acc
        tkw.write(repeat, c)
    m, n, k, e = 64, 64, 128, 8
    rng = np.random.default_rng(0)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((e, n, k)).astype(np.float16)
    hyperparams = {ADDRESS_SPACE_A: GLOBAL_ADDRESS_SPACE, ADDRESS_SPACE_B: GLOBAL_ADDRESS_SPACE,
                   ADDRESS_SPACE_C: GLOBAL_ADDRESS_SPACE, BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, M: m, N: n, K: k,
                   E: e}
    compiled_gemm = wave_compile(set_default_run_config(WaveCompileOptions(subs=hyperparams)), wave_kernel)
    assert "v_mfma" in compiled_gemm.asm  # compiled before the first call
    for expert in (1, 6):
        c = np.zeros((m, n), dtype=np.float32)
        compiled_gemm(a, b, expert, c)
        expected = a.astype(np.float32) @ b[expert].astype(np.float32).T
        assert np.allclose(c, expected, rtol=1e-2, atol=1e-2), np.abs(c - expected).max()
    assert json.loads(compiled_gemm.json)["dynamic_symbols"] == ["IDX"]


# ---- examples/python/6.1_schedule.py ----

def gemm_manual_pipeline():
    """A manual schedule is accepted and not applied (wavecc's own schedule), with a warning."""
    shape = (128, 256, 256)
    mfma_variant = tkw.MMAType.F32_16x16x16_F16
    constraints = [tkw.WorkgroupConstraint(M, BLOCK_M, 0)]
    constraints += [tkw.WorkgroupConstraint(N, BLOCK_N, 1)]
    constraints += [tkw.TilingConstraint(K, BLOCK_K)]
    constraints += [tkw.WaveConstraint(M, BLOCK_M / 4)]
    constraints += [tkw.WaveConstraint(N, BLOCK_N / 2)]
    constraints += [tkw.HardwareConstraint(threads_per_wave=64, mma_type=mfma_variant)]

    @tkw.wave(constraints)
    def gemm_prefetch(a: tkl.Memory[M, K, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[N, K, ADDRESS_SPACE, tkl.f16],
                      c: tkl.Memory[M, N, ADDRESS_SPACE_0, tkl.f32]):
        c_reg = tkl.Register[M, N, tkl.f32](0.0)

        @tkw.iterate(K, init_args=[c_reg], tag="k_loop")
        def repeat(acc: tkl.Register[M, N, tkl.f32]) -> tkl.Register[M, N, tkl.f32]:
            a_reg = tkw.read(a, tag="read_a")
            b_reg = tkw.read(b, tag="read_b")
            acc = tkw.mma(a_reg, b_reg, acc, tag="mma")
            return acc
        tkw.write(repeat, c)

    @wave_schedule.wave_schedule()
    def prefetch_schedule():
        k_loop = tkw.get_node_by_tag("k_loop")  # never runs under wavecc  # noqa: F841
    options = WaveCompileOptions(
        subs={M: shape[0], N: shape[1], K: shape[2], BLOCK_M: 128, BLOCK_N: 256, BLOCK_K: 64,
              ADDRESS_SPACE: SHARED_ADDRESS_SPACE, ADDRESS_SPACE_0: GLOBAL_ADDRESS_SPACE},
        canonicalize=True, schedule=SchedulingType.MANUAL)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        k = wave_compile(set_default_run_config(options), gemm_prefetch, prefetch_schedule)
    assert any("manual schedule is not applied" in str(x.message) for x in w), [str(x.message) for x in w]
    rng = np.random.default_rng(1)
    a = rng.standard_normal((shape[0], shape[2])).astype(np.float16)
    b = rng.standard_normal((shape[1], shape[2])).astype(np.float16)
    c = np.zeros((shape[0], shape[1]), np.float32)
    k(a, b, c)
    ref = a.astype(np.float32) @ b.astype(np.float32).T
    assert np.allclose(c, ref, rtol=1e-3, atol=1e-2), np.abs(c - ref).max()


# ---- the compiled kernel at run time ----

def _copy_kernel():
    from wave_kernels import _row_constraints

    @tkw.wave(_row_constraints(64))
    def copy(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16]):
        tkw.write(tkw.read(a) * 2.0, b)
    return wave_compile(WaveCompileOptions(subs={M: 4, N: 64, ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE}), copy)


def runtime_features():
    """The backend (no GPU here: the emulator), profile(), launch_info(), warnings, loc in the JSON."""
    import wavecc._compile as C
    k = _copy_kernel()
    a = np.arange(256, dtype=np.float16).reshape(4, 64)
    b = np.zeros_like(a)
    k(a, b)
    assert (b == a * 2).all()
    assert k.last_backend in ("emulator", "hip"), k.last_backend
    if k.last_backend == "emulator":  # the HIP runtime saw no GPU (or is not installed): asked for, it says so
        os.environ["WAVECC_BACKEND"] = "hip"
        try:
            b[...] = 0
            try:
                k(a, b)
                raise AssertionError("WAVECC_BACKEND=hip ran without a GPU")
            except wavecc.NoDeviceError as e:
                assert "GPU" in str(e) or "HIP runtime" in str(e), e
            assert (b == 0).all()  # nothing ran
        finally:
            del os.environ["WAVECC_BACKEND"]
        assert C._no_device  # remembered: later calls go straight to the emulator
    class GpuTensor:  # what a torch tensor on a GPU looks like to the call
        device = "cuda:0"

        def detach(self):
            return self

        def numpy(self):
            raise AssertionError("read a GPU tensor")
    try:
        k(GpuTensor(), b)
        raise AssertionError("a GPU tensor accepted")
    except wavecc.WaveccError as e:
        assert "cuda:0" in str(e) and "host memory" in str(e), e
    ps = k.params()
    assert [(p.kind, p.name, p.dtype, p.kernarg_offset, p.kernarg_bytes, p.dims) for p in ps] == [
        ("buffer", "a", "f16", 0, 8, ("4", "64")), ("buffer", "b", "f16", 8, 8, ("4", "64"))], ps
    info = k.launch_info()
    assert info["grid"][0] * info["grid"][1] * info["grid"][2] >= 1 and info["workgroup_size"][0] >= 64, info
    assert info["dynamic_lds_bytes"] == 0 and info["kernarg_size"] >= 16, info
    p = k.profile()
    assert p["kernel"] == "copy" and p["cycles"] > 0 and p["seconds"] > 0, p
    assert "modelled" in k.profile(as_text=True)
    assert k.warnings == []
    g = json.loads(k.json)["graph"]
    here = os.path.abspath(__file__)
    line = inspect.getsourcelines(_copy_kernel)[1] + 5
    assert all(n["loc"]["file"] == here and n["loc"]["line"] == line for n in g), g


def diagnostics_as_data():
    """A library error carries its diagnostics: the op's Python line, the JSON path, a hint (a gfx950-only
    MMA on gfx942 says which target has it)."""
    from wave_kernels import get_gemm_kernel
    kern, o = get_gemm_kernel((64, 64, 64), False, tkw.MMAType.F32_16x16x32_F16)
    try:
        wave_compile(o, kern)
        raise AssertionError("a gfx950 MMA compiled for gfx942")
    except wavecc.WaveccError as e:
        msg, diags = str(e), e.diagnostics
    errs = [d for d in diags if d.severity == "error"]
    assert errs and errs[0].op and errs[0].json_path.startswith("graph["), diags
    assert errs[0].source_file and errs[0].source_file.endswith("wave_kernels.py") and errs[0].source_line > 0, \
        vars(errs[0])
    assert "gfx950" in (errs[0].hint or "") and "the only target with it" in errs[0].hint, errs[0].hint
    assert "hint: " in msg and "wave_kernels.py:%d" % errs[0].source_line in msg, msg
    o.target = "gfx950"
    k = wave_compile(o, kern)  # the same kernel for gfx950
    assert "v_mfma_f32_16x16x32_f16" in k.asm
    # out of LDS: the read's line, and the constraints whose tiles to shrink at their own lines
    from wave_kernels import BLOCK_M, BLOCK_N, BLOCK_K, _gemm_constraints
    kern, o = get_gemm_kernel((512, 512, 512), False, tkw.MMAType.F32_16x16x16_F16)
    o.subs.update({BLOCK_M: 256, BLOCK_N: 256, BLOCK_K: 128})
    wg_line = inspect.getsourcelines(_gemm_constraints)[1] + 2
    try:
        wave_compile(o, kern)
        raise AssertionError("256x256x128 f16 tiles fit in LDS")
    except wavecc.WaveccError as e:
        msg = str(e)
    assert "wave_kernels.py:%d: read" % (inspect.getsourcelines(get_gemm_kernel)[1] + 14) in msg, msg
    assert "constraints[1].tile (WorkgroupConstraint at %s:%d) (workgroup, along N)" % (
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "wave_kernels.py"), wg_line) in msg, msg
    # a constraint the library rejects is located where the program made it
    kern, o = get_gemm_kernel((64, 64, 64), False, tkw.MMAType.F32_16x16x16_F16)
    kern.constraints.append(tkw.WaveConstraint(tkl.sym.Q, tkl.sym.BLOCK_Q)); line = inspect.currentframe().f_lineno
    try:
        wave_compile(o, kern)
        raise AssertionError("a constraint on an unknown dim accepted")
    except wavecc.WaveccError as e:
        assert "wave_examples.py:%d: WaveConstraint: " % line in str(e) and "'Q'" in str(e), e


def generic_dot_json():
    """GenericDot in the hardware constraint and MemoryAccessFlags: NONTEMPORAL dropped, VOLATILE recorded as the
    format's "volatile": true (on the read and the write it is given to only), the kernel passing."""
    from wavecc._constraints import constraint_json
    hc = tkw.HardwareConstraint(threads_per_wave=64, mma_type=tkw.GenericDot(k_mult=2))
    assert constraint_json(hc)["mma_type"] == {"kind": "GenericDot", "out_vec_size": 1, "k_vec_size": 4,
                                               "k_mult": 2, "along_dim": "N"}
    from wave_kernels import _row_constraints

    def kern(flags, wflags=None):
        @tkw.wave(_row_constraints(64))
        def copy(a: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[M, N, ADDRESS_SPACE, tkl.f16]):
            tkw.write(tkw.read(a, flags=flags), b, flags=wflags)
        return copy
    o = WaveCompileOptions(subs={M: 4, N: 64, ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE})
    from wavecc._compile import emit_kernel
    for flags, wflags in ((tkw.MemoryAccessFlags.NONTEMPORAL, None),
                          (tkw.MemoryAccessFlags.VOLATILE, None),
                          (tkw.MemoryAccessFlags.VOLATILE | tkw.MemoryAccessFlags.NONTEMPORAL,
                           tkw.MemoryAccessFlags.VOLATILE)):
        doc = emit_kernel(kern(flags, wflags), o)[0]
        acc = {n["op"]: n.get("volatile", False) for n in doc["graph"] if n["op"] in ("read", "write")}
        assert acc == {"read": bool(flags & tkw.MemoryAccessFlags.VOLATILE), "write": wflags is not None}, acc
        a = np.random.default_rng(5).standard_normal((4, 64)).astype(np.float16)
        b = np.zeros_like(a)
        wave_compile(o, kern(flags, wflags))(a, b)
        assert np.array_equal(a, b)


def tests():
    return [("1_dynamic_mapping.test_dynamic_offset_0", dynamic_offset_0),
            ("1_dynamic_mapping.test_dynamic_offset_1", dynamic_offset_1),
            ("1_dynamic_mapping.test_fixed_offset", fixed_offset),
            ("3_atomics.test_atomic_add_return_value", atomic_add_return_value),
            ("4_reductions.test_moe_weighted_sum", moe_weighted_sum),
            ("e2e/test_atomic.test_atomic_min", atomic_min),
            ("5_gemm.test_gemm_dynamic_expert", gemm_dynamic_expert),
            ("6.1_schedule.test_gemm_manual_pipeline", gemm_manual_pipeline),
            ("runtime_features", runtime_features), ("diagnostics_as_data", diagnostics_as_data),
            ("generic_dot_json", generic_dot_json)]
