"""Wave's wave_lang.kernel.wave.templates.test_kernels, written for wavecc's tracer.

- get_broadcast_scaled_add(shape): c[M, N/2] = a[M, N/2] + b[M] broadcast along N/2 (one row per workgroup).
- get_broadcasted_scale_gemm_mxfp4(shape, mfma_variant): the MXFP4 GEMM with one A scale per row, broadcast
  to the K/32 scale blocks (gfx950).
- get_gemm_*_kernel_and_schedule: the f16 GEMM with tagged ops and Wave's manual schedule (prefetch pipeline,
  unroll, unroll with per-iteration access, pipeline then unroll) and compile options with schedule MANUAL.
  wavecc schedules kernels itself: the schedule is returned for wave_compile, which compiles with wavecc's own
  schedule and warns that the manual one is not applied (wave_schedule.py); the results are the GEMM's.
"""
import sympy

from ... import lang as tkl
from ... import wave as tkw
from .. import wave_schedule
from ..compile import WaveCompileOptions
from ...lang.global_symbols import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE
from ..utils.general_utils import get_default_scheduling_params
from ..scheduling.schedule_enums import SchedulingType


def get_broadcast_scaled_add(shape):
    M, N, AS = tkl.sym.M, tkl.sym.N, tkl.sym.ADDRESS_SPACE
    row = 1
    cols = sympy.Max(sympy.Min(shape[1], 256), 64)
    constraints = [
        tkw.HardwareConstraint(threads_per_wave=64, vector_shapes={M: row, N: cols}),
        tkw.WorkgroupConstraint(M, row, 1),
        tkw.WorkgroupConstraint(N, cols, 0),
        tkw.WaveConstraint(M, row),
        tkw.WaveConstraint(N, cols),
    ]

    @tkw.wave(constraints)
    def broadcast_scaled_add(a: tkl.Memory[M, N / 2, AS, tkl.f16], b: tkl.Memory[M, AS, tkl.f16],
                             c: tkl.Memory[M, N / 2, AS, tkl.f16]):
        tkw.write(tkw.read(a) + tkw.broadcast(tkw.read(b), [M, N / 2]), c)

    return broadcast_scaled_add, {M: shape[0], N: shape[1], AS: GLOBAL_ADDRESS_SPACE}


def get_broadcasted_scale_gemm_mxfp4(shape, mfma_variant):
    M, N, K = tkl.sym.M, tkl.sym.N, tkl.sym.K
    BLOCK_M, BLOCK_N, BLOCK_K, AS = tkl.sym.BLOCK_M, tkl.sym.BLOCK_N, tkl.sym.BLOCK_K, tkl.sym.ADDRESS_SPACE
    constraints = [
        tkw.WorkgroupConstraint(M, BLOCK_M, 0),
        tkw.WorkgroupConstraint(N, BLOCK_N, 1),
        tkw.TilingConstraint(K, BLOCK_K),
        tkw.WaveConstraint(M, BLOCK_M / 2),
        tkw.WaveConstraint(N, BLOCK_N / 2),
        tkw.HardwareConstraint(threads_per_wave=64, mma_type=mfma_variant),
    ]

    @tkw.wave(constraints)
    def broadcasted_scale_scaled_mma(a: tkl.Memory[M, K / 2, AS, tkl.i8], a_scale: tkl.Memory[M, AS, tkl.i8],
                                     b: tkl.Memory[N, K / 2, AS, tkl.i8], b_scale: tkl.Memory[N, K / 32, AS, tkl.i8],
                                     c: tkl.Memory[M, N, GLOBAL_ADDRESS_SPACE, tkl.f32]):
        zero = tkl.Register[M, N, tkl.f32](0.0)

        @tkw.iterate(K, init_args=[zero])
        def k_loop(acc: tkl.Register[M, N, tkl.f32]) -> tkl.Register[M, N, tkl.f32]:
            xs = tkw.bitcast(tkw.broadcast(tkw.read(a_scale), [M, K / 32]), tkl.f8e8m0fnu)
            return tkw.scaled_mma(tkw.bitcast(tkw.read(a), tkl.f4e2m1fn), xs,
                                  tkw.bitcast(tkw.read(b), tkl.f4e2m1fn),
                                  tkw.bitcast(tkw.read(b_scale), tkl.f8e8m0fnu), acc)

        tkw.write(k_loop, c)

    hp = {AS: SHARED_ADDRESS_SPACE, BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 256, M: shape[0], N: shape[1], K: shape[2]}
    hp.update(get_default_scheduling_params())
    return broadcasted_scale_scaled_mma, hp


def _tagged_gemm(name, mfma_variant, waves=(2, 2)):
    """The f16 GEMM of the schedule templates: C (ADDRESS_SPACE_0) = A B^T, ops tagged k_loop, read_a, read_b,
    mma."""
    M, N, K = tkl.sym.M, tkl.sym.N, tkl.sym.K
    BLOCK_M, BLOCK_N, BLOCK_K = tkl.sym.BLOCK_M, tkl.sym.BLOCK_N, tkl.sym.BLOCK_K
    AS, AS0 = tkl.sym.ADDRESS_SPACE, tkl.sym.ADDRESS_SPACE_0
    constraints = [
        tkw.WorkgroupConstraint(M, BLOCK_M, 0),
        tkw.WorkgroupConstraint(N, BLOCK_N, 1),
        tkw.TilingConstraint(K, BLOCK_K),
        tkw.WaveConstraint(M, BLOCK_M / waves[0]),
        tkw.WaveConstraint(N, BLOCK_N / waves[1]),
        tkw.HardwareConstraint(threads_per_wave=64, mma_type=mfma_variant),
    ]

    def body(a: tkl.Memory[M, K, AS, tkl.f16], b: tkl.Memory[N, K, AS, tkl.f16],
             c: tkl.Memory[M, N, AS0, tkl.f32]):
        zero = tkl.Register[M, N, tkl.f32](0.0)

        @tkw.iterate(K, init_args=[zero], tag="k_loop")
        def repeat(acc: tkl.Register[M, N, tkl.f32]) -> tkl.Register[M, N, tkl.f32]:
            return tkw.mma(tkw.read(a, tag="read_a"), tkw.read(b, tag="read_b"), acc, tag="mma")

        tkw.write(repeat, c)
    body.__name__ = name
    return tkw.wave(constraints)(body)


def _options(shape, extra=None, **kw):
    M, N, K = tkl.sym.M, tkl.sym.N, tkl.sym.K
    subs = {M: shape[0], N: shape[1], K: shape[2], tkl.sym.BLOCK_M: 64, tkl.sym.BLOCK_N: 64, tkl.sym.BLOCK_K: 32,
            tkl.sym.ADDRESS_SPACE: SHARED_ADDRESS_SPACE, tkl.sym.ADDRESS_SPACE_0: GLOBAL_ADDRESS_SPACE}
    subs.update(extra or {})
    return WaveCompileOptions(subs=subs, canonicalize=True, schedule=SchedulingType.MANUAL, **kw)


def _schedule(name, doc):
    def f():
        pass
    f.__name__, f.__doc__ = name, doc
    return wave_schedule.wave_schedule()(f)


def get_gemm_prefetch_kernel_and_schedule(shape=(128, 128, 128), mfma_variant=tkw.MMAType.F32_16x16x16_F16,
                                          compile_to_mlir=True):
    sched = get_default_scheduling_params()
    from ...lang import global_symbols as g
    sched.update({g.VALU_UNITS: 8, g.SHUFFLE_UNITS: 8})
    return (_tagged_gemm("gemm_prefetch", mfma_variant),
            _schedule("prefetch_schedule", "Wave: a two-stage pipeline of the K loop (global loads and shared "
                                           "writes, then shared loads and the MMA)."),
            _options(shape, sched, use_scheduling_barriers=True, compile_to_mlir=compile_to_mlir))


def get_gemm_unroll_kernel_and_schedule(shape=(256, 256, 512), mfma_variant=tkw.MMAType.F32_16x16x16_F16,
                                        unroll_factor=2, compile_to_mlir=True, use_global_to_shared=False):
    return (_tagged_gemm("gemm_unroll", mfma_variant),
            _schedule("unroll_schedule", "Wave: the K loop unrolled %d times." % unroll_factor),
            _options(shape, compile_to_mlir=compile_to_mlir, use_global_to_shared=use_global_to_shared))


def get_gemm_unroll_with_iteration_access_kernel_and_schedule(shape=(256, 256, 512),
                                                              mfma_variant=tkw.MMAType.F32_16x16x16_F16,
                                                              unroll_factor=2, compile_to_mlir=True,
                                                              use_global_to_shared=False):
    return (_tagged_gemm("gemm_unroll_iter_access", mfma_variant),
            _schedule("unroll_iter_access_schedule", "Wave: the K loop unrolled, both iterations' reads clustered "
                                                     "before their MMAs."),
            _options(shape, compile_to_mlir=compile_to_mlir, use_global_to_shared=use_global_to_shared))


def get_gemm_pipeline_then_unroll_kernel_and_schedule(shape=(256, 256, 544),
                                                      mfma_variant=tkw.MMAType.F32_16x16x16_F16, unroll_factor=2,
                                                      compile_to_mlir=True, use_global_to_shared=False):
    name = "pipeline_then_unroll_schedule" + ("_g2s" if use_global_to_shared else "")
    return (_tagged_gemm("gemm_pipeline_then_unroll", mfma_variant),
            _schedule(name, "Wave: the two-stage pipeline, then its kernel stage unrolled %d times." % unroll_factor),
            _options(shape, compile_to_mlir=compile_to_mlir, use_global_to_shared=use_global_to_shared))
