// transcendental.cl — the VALU transcendental instructions through their
// builtins (v_exp_f32, v_log_f32, v_rcp_f32, v_rsq_f32, v_sqrt_f32, v_sin_f32,
// v_cos_f32), plus the library-free expansions clang emits for sqrtf, expf,
// logf and f32 division. Tolerances are set per output by the test.
#include "common.h"
#define WG 64

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void transcendental(__global const float *restrict x, __global const float *restrict y,
                             __global float *restrict out, int n) {
  int gid = WGID_X * WG + LID_X;
  if (gid >= n)
    return;
  float a = x[gid], b = y[gid];
  __global float *o = out + gid * 11;
  o[0] = __builtin_amdgcn_exp2f(a);
  o[1] = __builtin_amdgcn_logf(b);   // log2
  o[2] = __builtin_amdgcn_rcpf(a);
  o[3] = __builtin_amdgcn_rsqf(b);
  o[4] = __builtin_amdgcn_sqrtf(b);
  o[5] = __builtin_amdgcn_sinf(a);   // input in revolutions
  o[6] = __builtin_amdgcn_cosf(a);
  o[7] = __builtin_sqrtf(b);
  o[8] = __builtin_expf(a);
  o[9] = __builtin_logf(b);
  o[10] = a / b;
}
