// gemm_bf16_o0.cl — gemm_bf16.cl built at -O0: every value goes through scratch memory, SGPRs are spilled to VGPR
// lanes (v_writelane/v_readlane) and VGPRs to AGPRs, under whole-wave exec (s_or_saveexec_b64 exec, -1):
// the spill code a register allocator produces, here around MFMAs, LDS and barriers.
// clang-extra-flags: -O0
#include "gemm_bf16.cl"
