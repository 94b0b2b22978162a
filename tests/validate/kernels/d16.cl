// d16.cl — 16-bit and 8-bit loads that fill the two halves of one 32-bit
// register (short2, half2, ushort2 built from separate loads, global and
// LDS). clang-19 compiles the same source two ways depending on the target
// ID: with SRAM ECC off (`gfx942:sramecc-`) the second load goes straight
// into the high half (global_load_short_d16_hi, ubyte_d16_hi, sbyte_d16_hi,
// ds_read_u16_d16_hi), relying on the low half being kept; with SRAM ECC on
// or any (`gfx942`, `gfx942:sramecc+`, `gfx90a`) both halves are loaded whole
// and joined with v_perm_b32. tests/validate/d16_test.c runs every build.
// Indices are scattered (j = (7i + 3) mod n) so clang cannot merge loads.
#include "common.h"
#define WG 64

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void d16(__global const short *restrict s, __global const half *restrict h,
                  __global const uchar *restrict u, __global const char *restrict c,
                  __global uint *restrict out, int n) {
  __local short ls[2 * WG];
  __local half lh[2 * WG];
  int lid = LID_X, gid = WGID_X * WG + lid;
  int i = gid < n ? gid : n - 1; /* every lane fills its LDS slots */
  int j = (i * 7 + 3) % n;
  ls[lid] = s[3 * n + j];
  ls[lid + WG] = s[3 * n + i];
  lh[lid] = h[2 * n + j];
  lh[lid + WG] = h[2 * n + i];
  BARRIER();
  if (gid >= n)
    return;
  __global uint *o = out + gid * 8;
  short2 a = (short2)(s[i], s[n + j]);
  half2 b = (half2)(h[j], h[n + i]) * (half2)(2.0h, -1.0h);
  ushort2 d = (ushort2)(u[i], u[n + j]);
  short2 e = (short2)(c[j], c[n + i]);
  short2 f = (short2)(s[2 * n + j], (short)(i * 3 - 100));
  short2 g = (short2)(ls[(lid + 1) % WG], ls[lid + WG]);
  half2 k = (half2)(lh[lid + WG], lh[(lid + 5) % WG]) + (half2)(1.0h, 0.5h);
  o[0] = as_uint(a);
  o[1] = as_uint(b);
  o[2] = as_uint(d);
  o[3] = as_uint(e);
  o[4] = as_uint(f);
  o[5] = as_uint(g);
  o[6] = as_uint(k);
  o[7] = as_uint((short2)(c[2 * n + i], (short)u[2 * n + j]));
}
