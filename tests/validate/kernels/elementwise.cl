// elementwise.cl — f32 add/mul/fma/min/max, i32 arithmetic, logic, shifts,
// division, bit counts and selects, one element per work-item. The grid has a
// partial last workgroup: work-items with gid >= n must not write.
#include "common.h"
#define WG 64

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void elementwise(__global const float *restrict a, __global const float *restrict b,
                          __global const float *restrict c, __global const int *restrict x,
                          __global const int *restrict y, __global float *restrict fo,
                          __global int *restrict io, int n) {
  int gid = WGID_X * WG + LID_X;
  if (gid >= n)
    return;
  float fa = a[gid], fb = b[gid], fc = c[gid];
  __global float *f = fo + gid * 6;
  f[0] = fa + fb;
  f[1] = fa * fb;
  f[2] = __builtin_fmaf(fa, fb, fc);
  f[3] = __builtin_fminf(fa, fb);
  f[4] = fa - fb * fc;                 // contracted or not: checked with a tolerance
  f[5] = fa > fb ? fc : -fc;           // select
  int ix = x[gid], iy = y[gid];
  unsigned ux = (unsigned)ix, uy = (unsigned)iy;
  __global int *o = io + gid * 12;
  o[0] = ix + iy;
  o[1] = ix * iy;
  o[2] = ix >> (iy & 31);
  o[3] = (int)(ux >> (uy & 31));
  o[4] = ix << (iy & 31);
  o[5] = (ix & iy) ^ (ix | ~iy);
  o[6] = iy != 0 ? ix / iy : 0;        // signed division expands to a long VALU sequence
  o[7] = uy != 0 ? (int)(ux % uy) : 0; // unsigned remainder
  o[8] = ix < iy ? ix : iy;            // min
  o[9] = (int)((unsigned)__builtin_popcount(ux) + (ux ? (unsigned)__builtin_clz(ux) : 32u) * 64u);
  o[10] = (int)(((long)ix * (long)iy) >> 32); // mul_hi
  o[11] = (int)(fa * 1000.0f);         // f32 -> i32 (truncation; saturating on the GPU)
}
