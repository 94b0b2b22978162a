// big_wg.cl — the largest workgroup, 1024 work-items (16 waves): a tree
// reduction through LDS with a barrier per level, then every wave reads the
// per-wave partial sums another wave wrote. Exercises barrier release with
// many waves and s_barrier at every level.
#include "common.h"
#define WG 1024

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void big_wg(__global const int *restrict x, __global int *restrict out) {
  __local int buf[WG];
  __local int waves[16];
  int t = LID_X, g = WGID_X * WG + t;
  buf[t] = x[g];
  BARRIER();
  if (t % 64 == 0) {
    int s = 0;
    for (int i = 0; i < 64; i++)
      s += buf[t + i];
    waves[t / 64] = s;
  }
  for (int s = WG / 2; s > 0; s >>= 1) {
    BARRIER();
    if (t < s)
      buf[t] += buf[t + s];
  }
  BARRIER();
  out[g * 2] = buf[0];
  out[g * 2 + 1] = waves[15 - t / 64];
}
