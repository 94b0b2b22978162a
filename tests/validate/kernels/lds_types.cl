// lds_types.cl — LDS accesses of every width: u8/i8/u16/i16 reads (zero and
// sign extension), b8/b16 writes, b64/b96/b128 reads and writes, read2/write2
// with stride-64 forms, and a second phase reading what other waves wrote
// (barrier in between). One workgroup of 256 work-items per 256 elements.
#include "common.h"
#define WG 256
typedef float float4v __attribute__((ext_vector_type(4)));
typedef int int3v __attribute__((ext_vector_type(3)));

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void lds_types(__global const float4v *restrict v4, __global const char *restrict c8,
                        __global const short *restrict s16, __global int *restrict out) {
  __local float4v q[WG];
  __local int3v t3[WG];
  __local char b[WG];
  __local short h[WG];
  __local int wide[2 * WG];
  int t = LID_X, g = WGID_X * WG + t;
  float4v x = v4[g];
  q[t] = x;                                                       // ds_write_b128
  t3[t] = (int3v)(t, -t, g);                                      // int3: 16 bytes in LDS
  b[t] = c8[g];                                                   // ds_write_b8
  h[t] = s16[g];                                                  // ds_write_b16
  wide[t] = t * 5;
  wide[t + WG] = t * 7;
  BARRIER();
  int u = WG - 1 - t;
  float4v y = q[u];                                               // ds_read_b128 from another wave
  int3v z = t3[(t + 64) % WG];
  __global int *o = out + g * 10;
  o[0] = as_int(y.x + y.y * 2.0f + y.z * 4.0f + y.w * 8.0f);
  o[1] = z.x + z.y * 3 + z.z * 7;
  o[2] = (int)b[u];                                               // ds_read_i8
  o[3] = (int)(uchar)b[u];                                        // ds_read_u8
  o[4] = (int)h[u];                                               // ds_read_i16
  o[5] = (int)(ushort)h[u];                                       // ds_read_u16
  o[6] = wide[u] + wide[u + WG];
  o[7] = wide[(t * 3) % (2 * WG)] - wide[(t * 3 + 1) % (2 * WG)];
  BARRIER();
  b[t] = (char)(t * 3);                                           // overwrite, read back by a neighbour
  h[t] = (short)(-t * 300);
  BARRIER();
  o[8] = (int)b[(t + 1) % WG] * 1000 + (int)(uchar)b[(t + 2) % WG];
  o[9] = (int)h[(t + 3) % WG];
}
