"""Wave's wave_lang.kernel.wave.templates.tagged_mxfp4_gemm, written for wavecc's tracer (gfx950).

get_tagged_mxfp4_gemm: the MXFP4 scaled GEMM C[M, N] = (A * a_scale)(B * b_scale)^T with packed e2m1 A[M, K/2]
and B[N, K/2] (i8 storage) and e8m0 scales per 32 k, its ops tagged for Wave's MXFP4 schedules (k_loop, read_a,
bitcast_a, ..., scaled_mma), workgroups optionally renumbered in groups of group_size_n tiles along N. Returns
(kernel, WaveCompileOptions) with schedule MANUAL: wavecc compiles it with its own schedule (the results are
the same; wave_compile warns that the manual one is not applied).

The preshuffled and split-K variants (get_tagged_mxfp4_gemm_preshuffle_b, ..._preshuffle_scales,
get_tagged_splitk_mxfp4_gemm, ...) raise NotImplementedError here.
"""
from sympy import Max, Piecewise, ceiling, floor

from ... import lang as tkl
from ... import wave as tkw
from ...lang.global_symbols import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE, WORKGROUP_0, WORKGROUP_1
from ..compile import WaveCompileOptions
from ..constraints import ScaledMMAType
from ..scheduling.schedule_enums import SchedulingType
from ..utils.general_utils import get_default_scheduling_params


def _grouped_along_n(m, n, block_m, block_n, group):
    """New (wg0, wg1): the column-major ids taken in groups of `group` tiles along N, the leftover columns last."""
    rows, cols = ceiling(m / block_m), ceiling(n / block_n)
    flat = WORKGROUP_0 + WORKGROUP_1 * rows
    g = flat // group
    main0, main1 = g % rows, (g // rows) * group + flat % group
    full = floor(cols / group) * group
    tail = cols - full
    done = full * rows
    rest = flat - done
    in_tail = (flat >= done) & (tail > 0)
    return (Piecewise((rest // Max(1, tail), in_tail), (main0, True)),
            Piecewise((full + rest % Max(1, tail), in_tail), (main1, True)))


def get_tagged_mxfp4_gemm(shape=(1024, 1024, 8192), block_shape=(256, 256, 256), wave_shape=(2, 2),
                          mfma_variant=ScaledMMAType.F32_16x16x128_F8F6F4, a_address_space=SHARED_ADDRESS_SPACE,
                          b_address_space=SHARED_ADDRESS_SPACE, reorder_workgroups=True, group_size_n=32,
                          output_dtype=tkl.f32, num_waves=None):
    if output_dtype not in (tkl.f32, tkl.bf16):
        raise AssertionError("Unsupported output dtype: %s" % output_dtype)
    if num_waves is not None:  # examples/python/7_mxfp_gemm.py: waves as a count, split 2 along N
        wave_shape = (num_waves // 2, 2)
    S = tkl.sym
    M, N, K = S.M, S.N, S.K
    BLOCK_M, BLOCK_N, BLOCK_K = S.BLOCK_M, S.BLOCK_N, S.BLOCK_K
    A_AS, B_AS, C_AS = S.A_ADDRESS_SPACE, S.B_ADDRESS_SPACE, S.C_ADDRESS_SPACE
    constraints = [
        tkw.WorkgroupConstraint(M, BLOCK_M, 0),
        tkw.WorkgroupConstraint(N, BLOCK_N, 1),
        tkw.TilingConstraint(K, BLOCK_K),
        tkw.WaveConstraint(M, BLOCK_M / wave_shape[0]),
        tkw.WaveConstraint(N, BLOCK_N / wave_shape[1]),
        tkw.HardwareConstraint(threads_per_wave=64, mma_type=mfma_variant),
    ]
    if reorder_workgroups:
        wg0, wg1 = _grouped_along_n(M, N, BLOCK_M, BLOCK_N, group_size_n)
        constraints += [tkw.ReorderingConstraint(wg0, 0), tkw.ReorderingConstraint(wg1, 1)]

    @tkw.wave(constraints)
    def gemm(a: tkl.Memory[M, K / 2, A_AS, tkl.i8], a_scale: tkl.Memory[M, K / 32, A_AS, tkl.i8],
             b: tkl.Memory[N, K / 2, B_AS, tkl.i8], b_scale: tkl.Memory[N, K / 32, B_AS, tkl.i8],
             c: tkl.Memory[M, N, C_AS, output_dtype]):
        zero = tkl.Register[M, N, tkl.f32](0.0)

        @tkw.iterate(K, init_args=[zero], tag="k_loop")
        def repeat(acc: tkl.Register[M, N, tkl.f32]) -> tkl.Register[M, N, tkl.f32]:
            x = tkw.bitcast(tkw.read(a, tag="read_a"), tkl.f4e2m1fn)
            xs = tkw.bitcast(tkw.read(a_scale, tag="read_a_scale"), tkl.f8e8m0fnu)
            y = tkw.bitcast(tkw.read(b, tag="read_b"), tkl.f4e2m1fn)
            ys = tkw.bitcast(tkw.read(b_scale, tag="read_b_scale"), tkl.f8e8m0fnu)
            return tkw.scaled_mma(x, xs, y, ys, acc, tag="scaled_mma")

        res = tkw.cast(repeat, tkl.bf16) if output_dtype == tkl.bf16 else repeat
        tkw.write(res, c)

    hp = {A_AS: a_address_space, B_AS: b_address_space, C_AS: GLOBAL_ADDRESS_SPACE, BLOCK_M: block_shape[0],
          BLOCK_N: block_shape[1], BLOCK_K: block_shape[2], M: shape[0], N: shape[1], K: shape[2]}
    hp.update(get_default_scheduling_params())
    options = WaveCompileOptions(subs=hp, canonicalize=True, schedule=SchedulingType.MANUAL,
                                 use_global_to_shared=True, minimize_shared_allocs=False)
    return gemm, options


def _not_here(name):
    def f(*args, **kwargs):
        raise NotImplementedError("templates.tagged_mxfp4_gemm.%s is not implemented by wavecc's templates (its "
                                  "preshuffled layouts and split-K variants); get_tagged_mxfp4_gemm and "
                                  "gemm.get_scaled_gemm_kernel are" % name)
    f.__name__ = name
    return f


for _n in ("get_tagged_mxfp4_gemm_preshuffle_b", "get_tagged_mxfp4_gemm_preshuffle_b_wide_store",
           "get_tagged_mxfp4_gemm_preshuffle_scales", "get_tagged_mxfp4_gemm_preshuffle_scales_and_B",
           "get_tagged_splitk_mxfp4_gemm", "get_tagged_splitk_mxfp4_gemm_preshuffle_b",
           "get_tagged_splitk_mxfp4_gemm_preshuffle_scales"):
    globals()[_n] = _not_here(_n)
