// cvt_int.cl — integer <-> float conversions at their edges: i32/u32 -> f32
// rounding (values above 2^24 round to nearest even), f32 -> i32/u32
// truncation with the instructions' saturation (v_cvt_u32_f32: negative and
// NaN to 0, beyond 2^32 - 1 to the maximum; v_cvt_i32_f32 likewise to its
// range), f32 floor/ceil/trunc/rint and fract-free rounding of halves.
#include "common.h"
#define WG 64

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void cvt_int(__global const int *restrict x, __global const float *restrict f, __global uint *restrict o,
                      int n) {
  int g = WGID_X * WG + LID_X;
  if (g >= n)
    return;
  int i = x[g];
  float v = f[g];
  __global uint *p = o + g * 8;
  p[0] = as_uint((float)i);          // v_cvt_f32_i32
  p[1] = as_uint((float)(uint)i);    // v_cvt_f32_u32
  p[2] = (uint)v;                    // v_cvt_u32_f32 (saturating; out-of-range is the instruction's behaviour)
  p[3] = (uint)(int)v;               // v_cvt_i32_f32
  p[4] = as_uint(__builtin_floorf(v));
  p[5] = as_uint(__builtin_ceilf(v));
  p[6] = as_uint(__builtin_truncf(v));
  p[7] = as_uint(__builtin_rintf(v));
}
