// elementwise_o0.cl — elementwise.cl built at -O0: every value goes through scratch memory, SGPRs are spilled to VGPR
// lanes (v_writelane/v_readlane) and VGPRs to AGPRs, under whole-wave exec (s_or_saveexec_b64 exec, -1):
// the spill code a register allocator produces. The reference is the one for elementwise.
// clang-extra-flags: -O0
#include "elementwise.cl"
