"""Wave's wave_lang.kernel.wave.templates.reordered_gemm, written for wavecc's tracer.

get_reordered_matmul: C = cast(A B^T) with the workgroups renumbered for cache reuse (ReorderingConstraint on
grid dims 0 and 1): the flat workgroup index is first spread over 8 XCDs (consecutive hardware ids go to
different XCDs, so each XCD gets a contiguous run of tiles), then tiles are taken in groups of GROUP_SIZE_M rows,
column by column inside a group. Returns (kernel, hyperparams).
"""
from sympy import Max, Min, ceiling

from ... import lang as tkl
from ... import wave as tkw
from ...lang.global_symbols import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE, WORKGROUP_0, WORKGROUP_1
from ..constraints import MMAType  # noqa: F401  (Wave's module exports it)
from ..utils.general_utils import get_default_scheduling_params
from ._common import F16, wave_dtype

_XCDS = 8


def _reordered_ids(M, N, BLOCK_M, BLOCK_N, GROUP_SIZE_M):
    """(new id along grid dim 0, along dim 1): XCD spreading, then grouped row-major order."""
    rows, cols = ceiling(M / BLOCK_M), ceiling(N / BLOCK_N)
    total = rows * cols
    flat = WORKGROUP_1 * rows + WORKGROUP_0
    per_xcd, extra = total // _XCDS, total % _XCDS
    xcd_major = (flat % _XCDS) * per_xcd + Min(flat % _XCDS, extra) + flat // _XCDS
    group = GROUP_SIZE_M * cols
    first_row = (xcd_major // group) * GROUP_SIZE_M
    height = Max(1, Min(rows - first_row, GROUP_SIZE_M))
    within = xcd_major % group
    return first_row + within % height, within // height


def get_reordered_matmul(m_size, n_size, k_size, block_m_size, block_n_size, block_k_size, group_m_size,
                         mfma_variant, input_dtype=F16, output_dtype="float32"):
    M, N, K = tkl.sym.M, tkl.sym.N, tkl.sym.K
    BLOCK_M, BLOCK_N, BLOCK_K = tkl.sym.BLOCK_M, tkl.sym.BLOCK_N, tkl.sym.BLOCK_K
    GROUP_SIZE_M, AS = tkl.sym.GROUP_SIZE_M, tkl.sym.ADDRESS_SPACE
    t_in, t_out = wave_dtype(input_dtype), wave_dtype(output_dtype)
    wg0, wg1 = _reordered_ids(M, N, BLOCK_M, BLOCK_N, GROUP_SIZE_M)
    constraints = [
        tkw.WorkgroupConstraint(M, BLOCK_M, 0),
        tkw.WorkgroupConstraint(N, BLOCK_N, 1),
        tkw.TilingConstraint(K, BLOCK_K),
        tkw.WaveConstraint(M, BLOCK_M // 4),
        tkw.WaveConstraint(N, BLOCK_N // 2),
        tkw.ReorderingConstraint(wg0, 0),
        tkw.ReorderingConstraint(wg1, 1),
        tkw.HardwareConstraint(threads_per_wave=64, mma_type=mfma_variant),
    ]

    @tkw.wave(constraints)
    def gemm(a: tkl.Memory[M, K, AS, t_in], b: tkl.Memory[N, K, AS, t_in],
             c: tkl.Memory[M, N, GLOBAL_ADDRESS_SPACE, t_out]):
        zero = tkl.Register[M, N, tkl.f32](0.0)

        @tkw.iterate(K, init_args=[zero])
        def k_loop(acc: tkl.Register[M, N, tkl.f32]) -> tkl.Register[M, N, tkl.f32]:
            return tkw.mma(tkw.read(a), tkw.read(b), acc)

        tkw.write(tkw.cast(k_loop, t_out), c)

    hp = {M: m_size, N: n_size, K: k_size, BLOCK_M: block_m_size, BLOCK_N: block_n_size, BLOCK_K: block_k_size,
          GROUP_SIZE_M: group_m_size, AS: SHARED_ADDRESS_SPACE}
    hp.update(get_default_scheduling_params())
    return gemm, hp
