// scalar_ops.cl — uniform arithmetic on kernel arguments, kept on the scalar
// unit: 32- and 64-bit SALU add/sub/mul/mul_hi, shifts, bit-field extract,
// min/max/abs, logic, bit counting (s_bcnt1, s_ff1, s_flbit), s_cselect,
// 64-bit compares and a uniform division; work-item 0 of each workgroup
// writes, and every work-item adds its id so VALU reads of SGPRs are checked.
#include "common.h"
#define WG 64

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void scalar_ops(__global long *restrict out, int a, int b, uint c, long d, ulong e) {
  int t = LID_X;
  long r[16];
  r[0] = a + b;
  r[1] = (long)a * b;
  r[2] = (long)(((ulong)c * (ulong)(uint)b) >> 32);
  r[3] = a >> (b & 31);
  r[4] = (long)(c >> (b & 31)) | ((long)(c << 3) << 32);
  r[5] = (a < b ? a : b) * 3 + (a > b ? a : b);
  r[6] = (a < 0 ? -a : a) ^ (int)c;
  r[7] = __builtin_popcount(c) + __builtin_popcountl(e) * 100;
  r[8] = (c ? __builtin_ctz(c) : 32) + (c ? __builtin_clz(c) : 32) * 100;
  r[9] = (c >> 5) & 0x7ff;
  r[10] = d + (long)e;
  r[11] = d * (long)e;
  r[12] = (d >> (a & 63)) ^ (long)(e << (b & 63));
  r[13] = (d < (long)e) + 2 * ((ulong)d < e) + 4 * (d == (long)e);
  r[14] = b != 0 ? a / b : -1;
  r[15] = e != 0 ? (long)((ulong)d % e) : -1;
  __global long *o = out + WGID_X * WG * 16 + t * 16;
  for (int k = 0; k < 16; k++)
    o[k] = r[k] + t * (k + 1);
}
