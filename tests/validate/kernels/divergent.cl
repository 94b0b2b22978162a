// divergent.cl — per-lane control flow under EXEC masking: if/else on lane
// data, nested divergence, a divergent loop (Collatz steps, capped) with an
// early break, and a per-lane early return. Lanes past n return first.
#include "common.h"
#define WG 64

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void divergent(__global const int *restrict x, __global int *restrict out, int n) {
  int gid = WGID_X * WG + LID_X;
  if (gid >= n)
    return;
  int v = x[gid];
  int r;
  if (v & 1) {
    if (v % 3 == 0)
      r = v * 7;
    else
      r = -v;
  } else {
    r = v >> 1;
    if (r > 100)
      r -= 1000;
  }
  unsigned c = (unsigned)(v < 0 ? -v : v) + 1u;
  int steps = 0;
  while (c != 1u) {
    c = (c & 1u) ? 3u * c + 1u : c >> 1;
    if (++steps >= 200)
      break;
  }
  out[gid * 3] = r;
  out[gid * 3 + 1] = steps;
  if (v % 5 == 0)
    return;
  out[gid * 3 + 2] = r + steps;
}
