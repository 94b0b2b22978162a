// xlane_scan.cl — wave scans written by clang itself: with the DPP strategy
// of LLVM's atomic optimizer, a divergent atomic add/max/min becomes one
// atomic per wave plus a DPP inclusive scan (row_shr 1/2/4/8 with bound_ctrl,
// row_bcast:15 with row_mask 0xa and row_bcast:31 with row_mask 0xc keeping
// the old value, under whole-wave exec with inactive lanes set to the
// identity), v_readlane of lane 63 for the wave total and wave_shr:1 to make
// the scan exclusive. Each lane's returned value is then the counter's old
// value combined with the exclusive scan of the active lanes below it, in
// lane order: a test of the emulator's DPP against LLVM's own reading of it.
// Workgroup g (one wave) owns counters ictr[4g..4g+3] and fctr[g]; lanes whose
// x has bit 8 clear take no part. The f32 adds use integer values (exact in
// any order).
// clang-extra-flags: -mllvm -amdgpu-atomic-optimizer-strategy=DPP
#include "common.h"
#define WG 64
#define ATOMIC(op, T, p, v) \
  __opencl_atomic_fetch_##op((volatile __global T *)(p), (v), memory_order_relaxed, memory_scope_device)

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void xlane_scan(__global const int *restrict x, __global const float *restrict f,
                         volatile __global int *ictr, volatile __global float *fctr, __global int *restrict out) {
  int g = WGID_X, gid = g * WG + LID_X;
  int v = x[gid];
  __global int *o = out + gid * 5;
  if (v & 0x100) {
    o[0] = ATOMIC(add, atomic_int, &ictr[4 * g], v);
    o[1] = ATOMIC(max, atomic_int, &ictr[4 * g + 1], v);
    o[2] = (int)ATOMIC(min, atomic_uint, &ictr[4 * g + 2], (uint)v);
    o[3] = ATOMIC(sub, atomic_int, &ictr[4 * g + 3], v);
    o[4] = __builtin_bit_cast(int, ATOMIC(add, atomic_float, &fctr[g], f[gid]));
  }
}
