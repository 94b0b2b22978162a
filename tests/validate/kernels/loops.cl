// loops.cl — uniform control flow on the scalar unit: a loop whose trip count
// is a kernel argument (s_cmp / s_cbranch_scc), a nested loop, a branch on a
// uniform value (mode), and a uniform while loop with a data-dependent exit
// (values read with s_load since the address is uniform).
#include "common.h"
#define WG 64

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void loops(__global const int *restrict coef, __global int *restrict out, int n, int k, int mode) {
  int gid = WGID_X * WG + LID_X;
  int acc = 0;
  for (int j = 0; j < k; j++)            // uniform trip count
    acc += coef[j] * (gid + j);
  if (mode == 1) {                       // uniform branch
    for (int a = 0; a < 3; a++)
      for (int b = 0; b <= a; b++)
        acc = acc * 3 + a - b;
  } else {
    acc ^= 0x5a5a;
  }
  int steps = 0, idx = 0;
  while (coef[idx] != 0 && steps < 100) { // uniform exit read from memory
    idx = coef[idx] & 15;
    steps++;
  }
  if (gid < n) {
    out[gid * 2] = acc;
    out[gid * 2 + 1] = steps;
  }
}
