// wide_math.cl — f64 and i64 arithmetic and conversions, one element per
// work-item: f64 add/mul/fma, f64 division (v_div_scale/v_div_fmas/v_div_fixup
// with v_rcp_f64 refinement), f64 sqrt, f64 <-> f32 / i32 / i64 conversions,
// i64 add/mul/shift/compare and unsigned/signed 64-bit division and remainder
// (clang expands them into long VALU sequences). All results are exact.
#include "common.h"
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define WG 64

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void wide_math(__global const double *restrict a, __global const double *restrict b,
                        __global const long *restrict x, __global const long *restrict y,
                        __global double *restrict fo, __global long *restrict io, int n) {
  int gid = WGID_X * WG + LID_X;
  if (gid >= n)
    return;
  double da = a[gid], db = b[gid];
  long lx = x[gid], ly = y[gid];
  __global double *f = fo + gid * 8;
  f[0] = da + db;
  f[1] = da * db;
  f[2] = __builtin_fma(da, db, 1.5);
  f[3] = da / db;
  f[4] = __builtin_sqrt(__builtin_fabs(da));
  f[5] = (double)(float)da;          // f64 -> f32 (RNE) -> f64
  f[6] = (double)lx;                 // i64 -> f64
  f[7] = (double)(int)lx + (double)(uint)ly;
  __global long *o = io + gid * 8;
  o[0] = lx + ly;
  o[1] = lx * ly;
  o[2] = lx >> (ly & 63);
  o[3] = (long)((ulong)lx >> (ly & 63)) ^ (lx << (ly & 63));
  o[4] = ly != 0 ? (long)((ulong)lx / (ulong)ly) : 0;
  o[5] = ly != 0 && !(lx == (long)0x8000000000000000UL && ly == -1) ? lx % ly : 0;
  o[6] = (long)da;                   // f64 -> i64, truncation (|da| < 2^62 in the test)
  o[7] = (lx < ly) + 2 * ((ulong)lx < (ulong)ly) + 4 * (lx == ly);
}
