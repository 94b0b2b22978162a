// flat_atomic.cl — generic (FLAT) pointers that may point to global memory or
// LDS, chosen at run time so clang cannot infer the address space (flat_load /
// flat_store through the LDS aperture); global and LDS atomics with and without
// return values (add, max, min, xchg; LDS add and cmpxchg); 8 workgroups of 128 work-items
// all adding into one counter array.
#include "common.h"
#define WG 128

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void flat_atomic(__global int *restrict g, __global int *restrict out, __global int *restrict counters,
                          int sel) {
  __local int lds[WG];
  int t = LID_X, gid = WGID_X * WG + t;
  lds[t] = t * 3;
  BARRIER();
  // generic pointer: LDS for odd workgroups when sel is set, else global
  __generic int *p = (sel && (WGID_X & 1)) ? (__generic int *)lds : (__generic int *)(g + WGID_X * WG);
  int v = p[(t + 1) % WG];
  BARRIER();
  p[t] = v + 1;
  BARRIER();
  out[gid * 4] = p[t];
  // atomics
  int old = __atomic_fetch_add(&counters[0], t + 1, __ATOMIC_RELAXED);
  __atomic_fetch_max(&counters[1], gid * 7 % 1000, __ATOMIC_RELAXED);
  __atomic_fetch_min(&counters[2], -(gid * 13 % 777), __ATOMIC_RELAXED);
  __atomic_exchange_n(&counters[3], 5, __ATOMIC_RELAXED);
  __local int lc[2];
  if (t == 0) {
    lc[0] = 0;
    lc[1] = 100;
  }
  BARRIER();
  int lold = __atomic_fetch_add(&lc[0], 2, __ATOMIC_RELAXED);
  int expected = 100;
  // every work-item tries to replace 100: exactly one wins, whatever the order the LDS serves them in
  bool won = __atomic_compare_exchange_n(&lc[1], &expected, 200 + t, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  BARRIER();
  out[gid * 4 + 1] = (old >= 0) + 2 * (lold % 2 == 0) + 4 * (lold < 2 * WG);
  out[gid * 4 + 2] = lc[0];
  out[gid * 4 + 3] = (int)won * 1000 + lc[1];
}
