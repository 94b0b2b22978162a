"""Wave's wave_lang.kernel.wave.schedules.gemm_triple_buffer: accepted by wave_compile, not applied
(schedules/_manual.py)."""
from ._manual import manual

get_async_two_cluster_triple_buffer = manual("async_two_cluster_triple_buffer",
                                             "triple-buffered GEMM schedule in two clusters")
get_gfx1250_tbuf_gemm_schedule = manual("gfx1250_tbuf_gemm_schedule", "gfx1250 triple-buffered GEMM schedule")
