// dot.cl — the dot-product instructions: v_dot2c_f32_f16 (fdot2),
// v_dot4c_i32_i8 (sdot4, accumulating into its destination) and
// v_dot4_u32_u8 (udot4), with and without clamping. f16 operands have the
// exponent's low bit cleared so none is inf or NaN.
#include "common.h"
#define WG 64
typedef half half2v __attribute__((ext_vector_type(2)));

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void dot(__global const uint *restrict u, __global const uint *restrict w, __global const float *restrict f,
                  __global uint *restrict o, int n) {
  int gid = WGID_X * WG + LID_X;
  if (gid >= n)
    return;
  uint a = u[gid], b = w[gid];
  __global uint *p = o + gid * 5;
  half2v ha = as_half2(a & 0x7bff7bffu), hb = as_half2(b & 0x7bff7bffu);
  p[0] = as_uint(__builtin_amdgcn_fdot2(ha, hb, f[gid], false));
  p[1] = (uint)__builtin_amdgcn_sdot4((int)a, (int)b, (int)gid, false);
  p[2] = __builtin_amdgcn_udot4(a, b, b >> 3, false);
  p[3] = (uint)__builtin_amdgcn_sdot4((int)a, (int)b, (int)(b ^ a), true);   // clamped
  p[4] = __builtin_amdgcn_udot4(a, b, 0xffff0000u | b, true);
}
