// barriers.cl — workgroup barriers in the shapes real kernels produce:
// whole waves leaving early (s_endpgm) while the others keep synchronising
// (a barrier counts only waves still running), and waves meeting at two
// different s_barrier instructions on the two sides of a wave-uniform branch
// (the hardware counts arrivals, not program counters). Data moves between
// waves through LDS after each barrier.
#include "common.h"
#define WG 256

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void barriers(__global const int *restrict x, __global int *restrict out, int live_waves) {
  __local int buf[WG];
  int t = LID_X, wave = t / 64, g = WGID_X * WG + t;
  int wave_u = __builtin_amdgcn_readfirstlane(wave);   // uniform per wave
  if (wave_u >= live_waves)
    return;                                            // these waves end before any barrier
  buf[t] = x[g];
  if (wave_u % 2 == 0) {
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();                      // even waves arrive here ...
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
    out[g * 2] = buf[(t + 64) % (live_waves * 64)] + 1;
  } else {
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();                      // ... odd waves here
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
    out[g * 2] = buf[(t + 64) % (live_waves * 64)] - 1;
  }
  BARRIER();
  buf[t] = out[g * 2] * 2;
  BARRIER();
  out[g * 2 + 1] = buf[(live_waves * 64 - 1) - t];
}
