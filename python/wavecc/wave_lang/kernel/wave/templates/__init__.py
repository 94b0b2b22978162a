"""Wave's wave_lang.kernel.wave.templates: Wave's kernel templates written for wavecc's tracer (each module
says what it builds and what it returns; the signatures are Wave's). The package exports what Wave's does."""
from .attention_common import AttentionShape  # noqa: F401
from .tagged_attention import get_tagged_bshd_attention_kernel  # noqa: F401
from .tagged_mxfp4_gemm import (get_tagged_mxfp4_gemm, get_tagged_mxfp4_gemm_preshuffle_b,  # noqa: F401
                                get_tagged_mxfp4_gemm_preshuffle_b_wide_store, get_tagged_mxfp4_gemm_preshuffle_scales,
                                get_tagged_mxfp4_gemm_preshuffle_scales_and_B, get_tagged_splitk_mxfp4_gemm,
                                get_tagged_splitk_mxfp4_gemm_preshuffle_b,
                                get_tagged_splitk_mxfp4_gemm_preshuffle_scales)
