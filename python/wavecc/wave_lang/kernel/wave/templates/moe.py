"""Wave's wave_lang.kernel.wave.templates.moe, written for wavecc's tracer.

- get_gemm_kernel(m, k, n, mfma_variant, datatype): the f16/bf16 GEMM C[M, N] (f32) = A[M, K] B[N, K]^T of the
  MoE tests (64x64x32 tiles, 2x2 waves). Returns (kernel, hyperparams).
- get_silu_and_mul_kernel(m, n, datatype): out = x1 * s * x2 with s = c / (c + exp2(-x1)) elementwise, c = -1 as
  Wave's template has it (both of its constants are -1.0). Returns (kernel, hyperparams).
"""
import sympy

from ... import lang as tkl
from ... import wave as tkw
from ...lang.global_symbols import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE
from ..constraints import MMAType  # noqa: F401  (Wave's module imports it)
from .gemm import _mma_loop


def get_gemm_kernel(m, k, n, mfma_variant, datatype):
    if datatype not in (tkl.f16, tkl.bf16):
        raise AssertionError("Unsupported datatype: %s" % datatype)
    M, N, K = tkl.sym.M, tkl.sym.N, tkl.sym.K
    BLOCK_M, BLOCK_N, BLOCK_K, AS = tkl.sym.BLOCK_M, tkl.sym.BLOCK_N, tkl.sym.BLOCK_K, tkl.sym.ADDRESS_SPACE
    constraints = [
        tkw.WorkgroupConstraint(M, BLOCK_M, 0),
        tkw.WorkgroupConstraint(N, BLOCK_N, 1),
        tkw.TilingConstraint(K, BLOCK_K),
        tkw.WaveConstraint(M, BLOCK_M / 2),
        tkw.WaveConstraint(N, BLOCK_N / 2),
        tkw.HardwareConstraint(threads_per_wave=64, waves_per_block=(2, 2, 1), mma_type=mfma_variant),
    ]

    @tkw.wave(constraints)
    def gemm(a: tkl.Memory[M, K, AS, datatype], b: tkl.Memory[N, K, AS, datatype],
             c: tkl.Memory[M, N, GLOBAL_ADDRESS_SPACE, tkl.f32]):
        _mma_loop(a, b, c)

    return gemm, {AS: SHARED_ADDRESS_SPACE, BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, M: m, N: n, K: k}


def get_silu_and_mul_kernel(m, n, datatype):
    M, N, AS = tkl.sym.M, tkl.sym.N, tkl.sym.ADDRESS_SPACE
    cols = sympy.Max(sympy.Min(n, 256), 64)
    constraints = [
        tkw.HardwareConstraint(threads_per_wave=64, waves_per_block=(1, 1, 1), vector_shapes={M: 1, N: cols}),
        tkw.WorkgroupConstraint(M, 1, 1),
        tkw.WorkgroupConstraint(N, cols, 0),
        tkw.WaveConstraint(M, 1),
        tkw.WaveConstraint(N, cols),
    ]

    @tkw.wave(constraints)
    def silu_and_mul(x1: tkl.Memory[M, N, AS, datatype], x2: tkl.Memory[M, N, AS, datatype],
                     out: tkl.Memory[M, N, GLOBAL_ADDRESS_SPACE, datatype]):
        x = tkw.read(x1)
        c = tkl.Register[M, N, datatype](-1.0)
        gate = c / (c + tkw.exp2(x * tkl.Register[M, N, datatype](-1.0)))
        tkw.write(gate * x * tkw.read(x2), out)

    return silu_and_mul, {AS: SHARED_ADDRESS_SPACE, M: m, N: n}
