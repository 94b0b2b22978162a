"""Wave's wave_lang.kernel.wave.schedules.gemm_two_pp_cluster: the tagged f16 GEMM (get_tagged_gemm: ops tagged
k_loop, read_a, read_b, mma; 4 x 2 waves; returns (kernel, WaveCompileOptions) with schedule MANUAL) and its
ping-pong schedules, which wave_compile accepts and does not apply (schedules/_manual.py). get_tagged_BxA_T_gemm
raises NotImplementedError."""
from ... import wave as tkw
from ..templates.test_kernels import _tagged_gemm, _options
from ._manual import manual

get_two_pp_cluster_schedule = manual("two_pp_cluster_schedule", "two ping-pong clusters GEMM schedule")
get_async_two_pp_clusters = manual("async_two_pp_clusters", "asynchronous two ping-pong clusters GEMM schedule")


def get_tagged_gemm(shape=(128, 256, 1024), block_shape=(128, 256, 64), mfma_variant=tkw.MMAType.F32_16x16x16_F16,
                    compile_to_mlir=False, use_global_to_shared=False):
    from ... import lang as tkl
    gemm = _tagged_gemm("gemm", mfma_variant, waves=(4, 2))
    opts = _options(shape, {tkl.sym.BLOCK_M: block_shape[0], tkl.sym.BLOCK_N: block_shape[1],
                            tkl.sym.BLOCK_K: block_shape[2]}, compile_to_mlir=compile_to_mlir,
                    use_global_to_shared=use_global_to_shared, use_scheduling_barriers=False)
    return gemm, opts


def get_tagged_BxA_T_gemm(*args, **kwargs):
    raise NotImplementedError("schedules.gemm_two_pp_cluster.get_tagged_BxA_T_gemm is not implemented by wavecc's "
                              "templates (get_tagged_gemm is)")
