// mixed.cl — mixed-precision multiply-adds (v_fma_mix_f32 / v_fma_mixlo_f16
// take f16 or f32 operands per op_sel bits), and DPP with partial row and
// bank masks and bound_ctrl off, where disabled lanes keep the old value.
#include "common.h"
#define WG 64
#define ROW_SHR(n) (0x110 + (n))

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void mixed(__global const half *restrict h, __global const float *restrict f, __global float *restrict of,
                    __global half *restrict oh, __global int *restrict od, int n) {
  int lane = LID_X, gid = WGID_X * WG + lane;
  half a = h[gid], b = h[(gid + 1) % n];
  float x = f[gid], y = f[(gid + 2) % n];
  of[gid * 3] = (float)a * (float)b + x;          // all-f16 products into f32: v_fma_mix_f32
  of[gid * 3 + 1] = (float)a * x + y;             // f16 x f32 + f32
  of[gid * 3 + 2] = x * y + (float)b;
  oh[gid * 2] = (half)((float)a * x + y);         // rounded to f16: v_fma_mixlo_f16 (or cvt)
  oh[gid * 2 + 1] = (half)((float)a * (float)b + (float)a);
  int v = gid * 3 + 1;
  od[gid * 4] = __builtin_amdgcn_update_dpp(-1, v, ROW_SHR(1), 0x5, 0xf, false);   // rows 0 and 2 only
  od[gid * 4 + 1] = __builtin_amdgcn_update_dpp(-2, v, ROW_SHR(2), 0xf, 0x3, false); // banks 0 and 1 only
  od[gid * 4 + 2] = __builtin_amdgcn_update_dpp(-3, v, ROW_SHR(3), 0xa, 0x6, true);
  od[gid * 4 + 3] = __builtin_amdgcn_update_dpp(-4, v, 0x39 /* quad_perm [1,2,3,0] */, 0xf, 0xf, false);
}
