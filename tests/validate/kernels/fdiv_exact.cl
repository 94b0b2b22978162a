// fdiv_exact.cl — correctly rounded f32 division and square root, the
// sequences clang emits under -cl-fp32-correctly-rounded-divide-sqrt:
// v_div_scale_f32 (x2, one setting VCC), v_rcp_f32, an fma refinement chain,
// v_div_fmas_f32 (scales by VCC) and v_div_fixup_f32; sqrt by v_sqrt_f32
// corrected with neighbour checks and v_cmp_class_f32. Inputs include
// denormals and huge/tiny ratios, so every scaling path runs; results must be
// bit-exact.
// clang-extra-flags: -cl-fp32-correctly-rounded-divide-sqrt
#include "common.h"
#define WG 64

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void fdiv_exact(__global const float *restrict a, __global const float *restrict b,
                         __global float *restrict o, int n) {
  int gid = WGID_X * WG + LID_X;
  if (gid >= n)
    return;
  float x = a[gid], y = b[gid];
  o[gid * 2] = x / y;
  o[gid * 2 + 1] = __builtin_sqrtf(__builtin_fabsf(x));
}
