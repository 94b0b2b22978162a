// lds_reduce.cl — workgroup sum of 256 i32 values per workgroup by a tree in
// LDS with a barrier per level (crosses the four waves of the workgroup),
// plus a 64-bit LDS round trip (ds_write_b64/ds_read_b64) and a
// ds_read2/ds_write2 pair. Partial last workgroup: lanes past n add 0.
#include "common.h"
#define WG 256

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void lds_reduce(__global const int *restrict x, __global int *restrict sums,
                         __global long *restrict pairs, int n) {
  __local int buf[WG];
  __local long wide[WG];
  int t = LID_X;
  int gid = WGID_X * WG + t;
  int v = gid < n ? x[gid] : 0;
  buf[t] = v;
  wide[t] = (long)v * 0x100000001L;
  BARRIER();
  for (int s = WG / 2; s > 0; s >>= 1) {
    if (t < s)
      buf[t] += buf[t + s];
    BARRIER();
  }
  if (t == 0)
    sums[WGID_X] = buf[0];
  // neighbour in the other half of the workgroup, read as 64 bits
  long w = wide[(t + WG / 2) % WG];
  if (gid < n)
    pairs[gid] = w + 3;
}
