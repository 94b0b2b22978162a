// packed.cl — packed f32 math (v_pk_add_f32, v_pk_mul_f32, v_pk_fma_f32 on
// float2), three-operand min/max (v_max3/v_min3), byte-to-float conversions
// (v_cvt_f32_ubyte*), f16 transcendentals (v_rcp_f16, v_sqrt_f16,
// v_rsq_f16, v_exp_f16, v_log_f16), v_fract_f32 and v_sad_u8.
#include "common.h"
#define WG 64
typedef float float2v __attribute__((ext_vector_type(2)));

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void packed(__global const float2v *restrict a, __global const float2v *restrict b,
                     __global const uint *restrict u, __global const half *restrict h,
                     __global float2v *restrict o2, __global float *restrict of, __global half *restrict oh, int n) {
  int gid = WGID_X * WG + LID_X;
  if (gid >= n)
    return;
  float2v x = a[gid], y = b[gid];
  o2[gid * 3] = x + y;
  o2[gid * 3 + 1] = x * y;
  o2[gid * 3 + 2] = x * y + (float2v)(x.y, x.x);
  uint w = u[gid];
  __global float *f = of + gid * 8;
  f[0] = __builtin_fmaxf(x.x, __builtin_fmaxf(x.y, y.x));
  f[1] = __builtin_fminf(x.x, __builtin_fminf(x.y, y.y));
  f[2] = (float)(w & 0xff) + (float)((w >> 8) & 0xff) * 2.0f;
  f[3] = (float)((w >> 16) & 0xff) - (float)(w >> 24);
  f[4] = __builtin_amdgcn_fractf(x.x);
  f[5] = as_float(__builtin_amdgcn_sad_u8(w, w * 7u, 5u));
  f[6] = (float)__builtin_amdgcn_sad_u8(w, w * 7u, 5u);
  int i0 = (int)w, i1 = (int)(w * 3u), i2 = (int)(w ^ 0x55555555u);
  int m01 = i0 > i1 ? i0 : i1;
  int mx = m01 > i2 ? m01 : i2;
  f[7] = (float)(mx >> 8);
  half hv = h[gid];
  __global half *p = oh + gid * 5;
  p[0] = __builtin_amdgcn_rcph(hv);
  p[1] = __builtin_amdgcn_sqrth(hv);
  p[2] = __builtin_amdgcn_rsqh(hv);
  p[3] = __builtin_exp2f16(hv);
  p[4] = __builtin_log2f16(hv);
}
