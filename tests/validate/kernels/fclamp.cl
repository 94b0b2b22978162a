// fclamp.cl — the VALU clamp modifier on float results: clang folds
// min(max(x, 0), 1) into a clamp bit on the instruction that produces x
// (v_mul_f32/v_add_f32/v_fma_f32, f16 and packed f16 forms). With DX10_CLAMP
// set in the kernel descriptor a NaN result clamps to 0.
#include "common.h"
#define WG 64
typedef half half2v __attribute__((ext_vector_type(2)));

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void fclamp(__global const float *restrict a, __global const float *restrict b,
                     __global float *restrict of, __global half *restrict oh, int n) {
  int g = WGID_X * WG + LID_X;
  if (g >= n)
    return;
  float x = a[g], y = b[g];
  __global float *f = of + g * 3;
  f[0] = __builtin_fminf(__builtin_fmaxf(x * y, 0.0f), 1.0f);
  f[1] = __builtin_fminf(__builtin_fmaxf(x + y, 0.0f), 1.0f);
  f[2] = __builtin_fminf(__builtin_fmaxf(__builtin_fmaf(x, y, 0.25f), 0.0f), 1.0f);
  half hx = (half)x, hy = (half)y;
  half2v v = (half2v)(hx, hy) * (half2v)(hy, hx) + (half2v)(hx, (half)0.5f);
  half2v c = __builtin_elementwise_min(__builtin_elementwise_max(v, (half2v)(0.0f)), (half2v)(1.0f));
  oh[g * 3] = c.x;
  oh[g * 3 + 1] = c.y;
  oh[g * 3 + 2] = __builtin_fminf16(__builtin_fmaxf16(hx - hy, (half)0.0f), (half)1.0f);
}
