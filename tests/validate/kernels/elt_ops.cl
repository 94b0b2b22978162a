// elt_ops.cl — the compares, integer min/max, division and bit operations
// that wavecc's elementwise instruction selection (isel/compare.c, math.c,
// index.c) emits: each result stored as a word, one element per work-item.
// The grid has a partial last workgroup: work-items with gid >= n must not
// write.
#include "common.h"
#define WG 64

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void elt_ops(__global const float *restrict a, __global const float *restrict b,
                      __global const int *restrict x, __global const int *restrict y,
                      __global int *restrict io, int n) {
  int gid = WGID_X * WG + LID_X;
  if (gid >= n)
    return;
  float fa = a[gid], fb = b[gid];
  int ix = x[gid], iy = y[gid];
  unsigned ux = (unsigned)ix, uy = (unsigned)iy;
  __global int *o = io + gid * 29;
  o[0] = fa == fb;
  o[1] = fa != fb;
  o[2] = fa < fb;
  o[3] = fa <= fb;
  o[4] = fa > fb;
  o[5] = fa >= fb;
  o[6] = ix == iy;
  o[7] = ix != iy;
  o[8] = ix < iy;
  o[9] = ix <= iy;
  o[10] = ix > iy;
  o[11] = ix >= iy;
  o[12] = ux < uy;
  o[13] = ux <= uy;
  o[14] = ux > uy;
  o[15] = ux >= uy;
  o[16] = ix > iy ? ix : iy;                 // max, signed
  o[17] = (int)(ux < uy ? ux : uy);          // min, unsigned
  o[18] = (int)(ux > uy ? ux : uy);          // max, unsigned
  o[19] = ~ix;                               // not
  o[20] = uy != 0 ? (int)(ux / uy) : 0;      // unsigned division (rcp_iflag, mul_hi_u32)
  o[21] = ix - iy * 3;                       // sub
  o[22] = (int)(((unsigned long)ux * uy) >> 32); // mul_hi_u32
  o[23] = ix < iy ? ix : iy;                 // min, signed
  o[24] = ix & iy;
  o[25] = ix | iy;
  o[26] = ix ^ iy;
  o[27] = ix & 0x7fffffff;                   // and with a literal (abs of a float's bits)
  o[28] = __builtin_isunordered(as_half((ushort)ix), as_half((ushort)iy)); // v_cmp_u_f16 (NaN max/min)
}

// elt_masks: several lane masks live at once, each picking between two
// floats twice and turned into a 0/1 word: clang keeps them in SGPR pairs
// (v_cmp_*_e64 s[..]) and selects with v_cndmask_b32_e64 reading a pair,
// the form isel/compare.c uses for a mask it kept (an s_mov_b64 copy of
// vcc; s_mov_b64 itself is in the control suite's lists).
__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void elt_masks(__global const float *restrict a, __global const float *restrict b,
                        __global const int *restrict x, __global float *restrict out, int n) {
  int gid = WGID_X * WG + LID_X;
  if (gid >= n)
    return;
  float fa = a[gid], fb = b[gid];
  int ix = x[gid];
  bool m0 = ix < 300, m1 = ix > -5, m2 = ix != 7, m3 = fa < fb;
  __global float *o = out + gid * 9;
  o[0] = m0 ? fa : fb;
  o[1] = m1 ? fb : fa;
  o[2] = m2 ? fa : fb;
  o[3] = m3 ? fb : fa;
  o[4] = m0 ? fb * 2.0f : fa * 3.0f;
  o[5] = m1 ? fa * fb : fa + fb;
  o[6] = m2 ? fa - fb : fb - fa;
  o[7] = m3 ? fa * 5.0f : fb * 7.0f;
  o[8] = (float)((int)m0 + 2 * (int)m1 + 4 * (int)m2 + 8 * (int)m3);
}
