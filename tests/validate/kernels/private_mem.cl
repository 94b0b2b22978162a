// private_mem.cl — per-work-item arrays indexed with run-time values, which
// clang keeps in registers with indexed moves or spills to scratch memory.
#include "common.h"
#define WG 64

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void private_mem(__global const int *restrict idx, __global int *restrict out, int n) {
  int gid = WGID_X * WG + LID_X;
  if (gid >= n)
    return;
  int small[8];
  for (int i = 0; i < 8; i++)
    small[i] = gid * 8 + i;
  int big[96];
  for (int i = 0; i < 96; i++)
    big[i] = i * i + gid;
  int k = idx[gid];
  small[k & 7] += 1000;
  big[(k >> 3) % 96] = -5;
  int s = 0;
  for (int i = 0; i < 8; i++)
    s += small[(k + i) & 7] * (i + 1);
  out[gid * 2] = s;
  out[gid * 2 + 1] = big[(k * 7) % 96] + big[(k >> 3) % 96] + big[k % 96];
}
