"""Wave's wave_lang.kernel.wave.templates.dist_gemm, written for wavecc's tracer.

get_dist_gemm_kernel: gemm.get_gemm_kernel's GEMM (64x64x32 tiles, 2x2 waves) with M and N also split over
device_m x device_n devices (DeviceConstraint, tile DEVICE_M = M / device_m). wavecc compiles for one device whose
grid covers what all the devices together compute (docs/kernel-format.md, "Device constraints"), so one launch
gives the whole C. Returns (kernel, hyperparams, dynamic_symbols).
"""
from ... import lang as tkl
from ... import wave as tkw
from ...lang.global_symbols import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE
from ..constraints import MMAType  # noqa: F401  (Wave's module imports it)
from ..utils.general_utils import get_default_scheduling_params
from ._common import F16, wave_dtype, per_dim, dims_to_dynamic
from .gemm import _mma_loop


def get_dist_gemm_kernel(shape, dynamic_dims, mfma_variant, dtype=F16, device_m=1, device_n=1):
    M, N, K = tkl.sym.M, tkl.sym.N, tkl.sym.K
    BLOCK_M, BLOCK_N, BLOCK_K = tkl.sym.BLOCK_M, tkl.sym.BLOCK_N, tkl.sym.BLOCK_K
    DEVICE_M, DEVICE_N, AS = tkl.sym.DEVICE_M, tkl.sym.DEVICE_N, tkl.sym.ADDRESS_SPACE
    dyn = per_dim(dynamic_dims, 3)
    dt = wave_dtype(dtype)
    constraints = [
        tkw.DeviceConstraint(M, DEVICE_M, 0),
        tkw.DeviceConstraint(N, DEVICE_N, 1),
        tkw.WorkgroupConstraint(M, BLOCK_M, 0),
        tkw.WorkgroupConstraint(N, BLOCK_N, 1),
        tkw.TilingConstraint(K, BLOCK_K),
        tkw.WaveConstraint(M, BLOCK_M / 2),
        tkw.WaveConstraint(N, BLOCK_N / 2),
        tkw.HardwareConstraint(threads_per_wave=64, mma_type=mfma_variant),
    ]
    if dyn[2]:
        constraints.append(tkw.Assumption(K > BLOCK_K * 4))

    @tkw.wave(constraints)
    def gemm(a: tkl.Memory[M, K, AS, dt], b: tkl.Memory[N, K, AS, dt],
             c: tkl.Memory[M, N, GLOBAL_ADDRESS_SPACE, tkl.f32]):
        _mma_loop(a, b, c)

    hp = {AS: SHARED_ADDRESS_SPACE, DEVICE_M: shape[0] // device_m, DEVICE_N: shape[1] // device_n, BLOCK_M: 64,
          BLOCK_N: 64, BLOCK_K: 32, M: shape[0], N: shape[1], K: shape[2]}
    hp.update(get_default_scheduling_params())
    return gemm, hp, dims_to_dynamic(hp, (M, N, K), dyn)
