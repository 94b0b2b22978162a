// xlane_math.cl — the f32 transcendental and division instructions a softmax
// or a normalisation uses, raw and as clang lowers the library calls:
//   0 v_exp_f32 (exp2)   1 v_log_f32 (log2)   2 v_rcp_f32
//   3 exp2f   4 expf   5 log2f   6 a / b
// With this file's flags, 3..6 are clang's accurate expansions (exp2/log2
// rescaled around the denormal range, expf through exp2 with an extra-precise
// product, division through v_div_scale/v_div_fmas/v_div_fixup or
// v_rcp_f32 with scaling, to OpenCL's 2.5 ulp). xlane_math_fast.cl rebuilds
// this kernel with -cl-fast-relaxed-math (bare v_exp_f32 / v_log_f32, and
// a * v_rcp_f32(b)). Tolerances are set by the test.
#include "common.h"
#define WG 64
#define NOUT 7

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void xlane_math(__global const float *restrict x, __global const float *restrict y,
                         __global float *restrict out, int n) {
  int gid = WGID_X * WG + LID_X;
  if (gid >= n)
    return;
  float a = x[gid], b = y[gid];
  __global float *o = out + gid * NOUT;
  o[0] = __builtin_amdgcn_exp2f(a);
  o[1] = __builtin_amdgcn_logf(b);
  o[2] = __builtin_amdgcn_rcpf(b);
  o[3] = __builtin_exp2f(a);
  o[4] = __builtin_expf(a * 0.5f);
  o[5] = __builtin_log2f(b);
  o[6] = a / b;
}
