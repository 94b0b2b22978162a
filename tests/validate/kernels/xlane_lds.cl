// xlane_lds.cl — LDS across the 4 waves of a 256-thread workgroup, the way a
// cross-wave reduction and a shared-memory tile use it: every thread writes
// one float (ds_write_b32), one float2 (b64) and one float4 (b128), and after
// s_barrier reads values another wave wrote (ds_read_b32/b64/b128). Then a
// two-level reduction: each wave sums and maxes its values with DPP
// (row_shr 1/2/4/8 with bound_ctrl, row_bcast:15/31 with row masks), lane 63
// stores the wave's result, and after a second barrier every thread reads
// the four partials as one float4. Inputs are small integers (sums exact in
// any order). n is a multiple of 256.
#include "common.h"
#define WG 256
#define NOUT 10
#define DPPF(old, v, c, rm, bc) \
  __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(__builtin_bit_cast(int, (float)(old)), \
                                                        __builtin_bit_cast(int, (v)), (c), (rm), 0xf, (bc)))

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void xlane_lds(__global const float *restrict x, __global float *restrict out, int n) {
  __local float l32[WG];
  __local float2 l64[WG];
  __local float4 l128[WG];
  __local float4 red_sum, red_max;
  int t = LID_X, gid = WGID_X * WG + t, lane = t % 64, wave = t / 64;
  float f = x[gid];
  l32[t] = f;
  l64[(t * 5 + 3) % WG] = (float2)(f, -f);
  l128[t] = (float4)(f, f + 1.0f, f * 2.0f, f - 3.0f);
  BARRIER();
  float r32 = l32[WG - 1 - t];
  float2 r64 = l64[t ^ 64];
  float4 r128 = l128[(t + 64) % WG];
  // wave reduction: after these steps lane 63 holds the wave's sum / max
  float s = f, m = f;
  s += DPPF(0.0f, s, 0x111, 0xf, true);
  s += DPPF(0.0f, s, 0x112, 0xf, true);
  s += DPPF(0.0f, s, 0x114, 0xf, true);
  s += DPPF(0.0f, s, 0x118, 0xf, true);
  s += DPPF(0.0f, s, 0x142, 0xa, false);
  s += DPPF(0.0f, s, 0x143, 0xc, false);
  m = __builtin_fmaxf(m, DPPF(-INFINITY, m, 0x111, 0xf, false));
  m = __builtin_fmaxf(m, DPPF(-INFINITY, m, 0x112, 0xf, false));
  m = __builtin_fmaxf(m, DPPF(-INFINITY, m, 0x114, 0xf, false));
  m = __builtin_fmaxf(m, DPPF(-INFINITY, m, 0x118, 0xf, false));
  m = __builtin_fmaxf(m, DPPF(-INFINITY, m, 0x142, 0xa, false));
  m = __builtin_fmaxf(m, DPPF(-INFINITY, m, 0x143, 0xc, false));
  if (lane == 63) {
    ((__local float *)&red_sum)[wave] = s;
    ((__local float *)&red_max)[wave] = m;
  }
  BARRIER();
  float4 ps = red_sum, pm = red_max;
  __global float *o = out + gid * NOUT;
  o[0] = r32;
  o[1] = r64.x;
  o[2] = r64.y;
  o[3] = r128.x;
  o[4] = r128.y;
  o[5] = r128.z;
  o[6] = r128.w;
  o[7] = ps.x + ps.y + ps.z + ps.w;
  o[8] = __builtin_fmaxf(__builtin_fmaxf(pm.x, pm.y), __builtin_fmaxf(pm.z, pm.w));
  o[9] = s; // the inclusive scan within the wave
}
