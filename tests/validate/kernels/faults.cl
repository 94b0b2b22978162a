// faults.cl — kernels that go wrong on purpose, to check that the emulator
// reports instead of crashing: a store far outside every buffer, a load from a
// wild pointer, and a loop that never ends (stopped by the instruction cap).
#include "common.h"
#define WG 64

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void oob_store(__global int *restrict p, long off) {
  p[LID_X + off] = 1;
}

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void wild_load(__global int *restrict out, ulong addr) {
  out[LID_X] = *(__global const int *)(addr + (ulong)LID_X * 4);
}

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void spin(__global int *out, __global volatile int *flag) {
  int i = 0;
  while (*flag == 0)      // the test leaves flag at 0: only the instruction cap ends this
    i++;
  out[LID_X] = i;
}
