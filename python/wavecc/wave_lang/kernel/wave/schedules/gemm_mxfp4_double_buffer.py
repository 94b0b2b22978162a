"""Wave's wave_lang.kernel.wave.schedules.gemm_mxfp4_double_buffer: the MXFP4 GEMM schedules, accepted by
wave_compile and not applied (schedules/_manual.py)."""
from ._manual import manual

get_mxfp4_dbuf_schedule = manual("mxfp4_dbuf_schedule", "double-buffered MXFP4 GEMM schedule")
get_mxfp4_dbuf_pingpong_schedule = manual("mxfp4_dbuf_pingpong_schedule", "ping-pong MXFP4 GEMM schedule")
get_mxfp4_dbuf_mixed_pingpong_schedule = manual("mxfp4_dbuf_mixed_pingpong_schedule",
                                                "mixed ping-pong MXFP4 GEMM schedule")
get_mxfp4_dbuf_mixed_pingpong_shuffle_schedule = manual("mxfp4_dbuf_mixed_pingpong_shuffle_schedule",
                                                        "mixed ping-pong MXFP4 GEMM schedule with shuffles")
get_mxfp4_asymmetric_schedule = manual("mxfp4_asymmetric_schedule", "asymmetric MXFP4 GEMM schedule")
get_mxfp4_dbuf_pingpong_schedule_Bshuffled = manual("mxfp4_dbuf_pingpong_schedule_Bshuffled",
                                                    "ping-pong MXFP4 schedule for a preshuffled B")
get_mxfp4_dbuf_pingpong_schedule_Bshuffled_lds = manual("mxfp4_dbuf_pingpong_schedule_Bshuffled_lds",
                                                        "ping-pong MXFP4 schedule for a preshuffled B through LDS")
