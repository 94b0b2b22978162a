"""Wave's wave_lang.kernel.wave.schedules: Wave's manual schedules. wavecc schedules kernels itself: each
get_*_schedule() gives a schedule object that wave_compile accepts and does not apply (with a warning)."""
from .gemm_triple_buffer import get_async_two_cluster_triple_buffer, get_gfx1250_tbuf_gemm_schedule  # noqa: F401
from .gemm_two_pp_cluster import get_two_pp_cluster_schedule, get_async_two_pp_clusters  # noqa: F401
from .gemm_mxfp4_double_buffer import (get_mxfp4_dbuf_schedule, get_mxfp4_dbuf_pingpong_schedule,  # noqa: F401
                                       get_mxfp4_dbuf_mixed_pingpong_schedule,
                                       get_mxfp4_dbuf_mixed_pingpong_shuffle_schedule, get_mxfp4_asymmetric_schedule,
                                       get_mxfp4_dbuf_pingpong_schedule_Bshuffled,
                                       get_mxfp4_dbuf_pingpong_schedule_Bshuffled_lds)
from .attention_prefetch import get_attention_prefetch_schedule  # noqa: F401
