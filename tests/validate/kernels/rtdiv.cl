// rtdiv.cl — unsigned 32-bit division and remainder by a wave-uniform
// divisor known only at run time, the sequence wavecc's index expressions
// use (isel/rtdiv.c): the reciprocal on the vector unit (v_cvt_f32_u32,
// v_rcp_iflag_f32, scaled by 0x4f7ffffe, v_cvt_u32_f32), v_readfirstlane_b32
// and one integer Newton step on the scalar unit; per-lane dividends on the
// vector unit (v_mul_hi_u32 by the SGPR reciprocal, two corrections through
// v_cmp_le_u32 / v_cndmask_b32), a uniform one on the scalar unit
// (s_mul_hi_u32, s_cmp_ge_u32 / s_cselect_b32). Also the forms of the
// divisor-0 guard, here on a separate scalar e: s_cmp_lg_u32 with
// s_cselect_b32 q, 0 on the scalar unit, a lane mask from s_cselect_b64 -1, 0
// and v_cndmask_b32 on the vector unit. The grid has a partial last
// workgroup.
#include "common.h"
#define WG 64

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void rtdiv(__global const uint *restrict x, __global const uint *restrict ux,
                    __global uint *restrict o, __global uint *restrict ou, int n, uint d, uint e) {
  int wg = WGID_X, gid = wg * WG + LID_X;
  if (LID_X == 0) {
    uint u = ux[wg]; // uniform: the scalar unit
    ou[3 * wg] = u / d;
    ou[3 * wg + 1] = u % d;
    ou[3 * wg + 2] = e ? u : 0u;
  }
  if (gid >= n)
    return;
  uint a = x[gid];
  o[3 * gid] = a / d;
  o[3 * gid + 1] = a % d;
  o[3 * gid + 2] = e ? a : 0u;
}
