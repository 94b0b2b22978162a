// xlane_perm.cl — the other cross-lane paths of a wave reduction or
// transpose: ds_bpermute_b32 (backward: lane l reads lane ((addr+offset)
// >> 2) & 63, so addresses past 255 or negative wrap), ds_permute_b32
// (forward: lane l's value goes to that lane; on a collision the higher lane
// wins), ds_swizzle_b32 in bit-mask mode (xor 1..16, and a broadcast
// and/or mask) and in quad-permute mode, v_readfirstlane, v_readlane with a
// constant and with an SGPR lane index (also in a uniform loop over all 64
// lanes) and v_writelane. The permutes, swizzles and readfirstlane run under
// `act` (lanes with a clear bit skip them: inactive source lanes); readlane
// and writelane run with all lanes. One wave per workgroup; n is a multiple
// of 64.
#include "common.h"
#define WG 64
#define NOUT 30
#define QP(a, b, c, d) ((a) | (b) << 2 | (c) << 4 | (d) << 6)
#define SWZ_XOR(k) (0x1f | (k) << 10)

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void xlane_perm(__global const int *restrict x, __global const int *restrict addr,
                         __global const int *restrict paddr, __global int *restrict out, int n, uint act_lo,
                         uint act_hi, int rl, int wv) {
  int lane = LID_X;
  int gid = WGID_X * WG + lane;
  int v = x[gid];
  __global int *o = out + gid * NOUT;
  // all lanes active
  o[26] = __builtin_amdgcn_readlane(v, rl);
  o[27] = __builtin_amdgcn_readlane(v, 45);
  o[28] = __builtin_amdgcn_readlane(v, 63 - rl) + wv;
  int sum = 0;
  for (int i = 0; i < 64; i += 1 + (i & 1))  // lanes 0, 1, 3, 4, 6, ...: an SGPR index from a loop
    sum += __builtin_amdgcn_readlane(v, i) * (i + 1);
  o[29] = sum;
  uint bits = lane < 32 ? act_lo >> lane : act_hi >> (lane - 32);
  if (bits & 1) {
    int a = addr[gid];
    o[0] = __builtin_amdgcn_ds_bpermute(a, v);
    o[1] = __builtin_amdgcn_ds_bpermute(a + 8, v);
    o[2] = __builtin_amdgcn_ds_bpermute(lane * 4 + 0x10004, v);
    o[3] = __builtin_amdgcn_ds_permute(paddr[gid], v);
    o[4] = __builtin_amdgcn_ds_swizzle(v, SWZ_XOR(1));
    o[5] = __builtin_amdgcn_ds_swizzle(v, SWZ_XOR(2));
    o[6] = __builtin_amdgcn_ds_swizzle(v, SWZ_XOR(3));
    o[7] = __builtin_amdgcn_ds_swizzle(v, SWZ_XOR(4));
    o[8] = __builtin_amdgcn_ds_swizzle(v, SWZ_XOR(5));
    o[9] = __builtin_amdgcn_ds_swizzle(v, SWZ_XOR(6));
    o[10] = __builtin_amdgcn_ds_swizzle(v, SWZ_XOR(7));
    o[11] = __builtin_amdgcn_ds_swizzle(v, SWZ_XOR(8));
    o[12] = __builtin_amdgcn_ds_swizzle(v, SWZ_XOR(9));
    o[13] = __builtin_amdgcn_ds_swizzle(v, SWZ_XOR(10));
    o[14] = __builtin_amdgcn_ds_swizzle(v, SWZ_XOR(11));
    o[15] = __builtin_amdgcn_ds_swizzle(v, SWZ_XOR(12));
    o[16] = __builtin_amdgcn_ds_swizzle(v, SWZ_XOR(13));
    o[17] = __builtin_amdgcn_ds_swizzle(v, SWZ_XOR(14));
    o[18] = __builtin_amdgcn_ds_swizzle(v, SWZ_XOR(15));
    o[19] = __builtin_amdgcn_ds_swizzle(v, SWZ_XOR(16));
    o[20] = __builtin_amdgcn_ds_swizzle(v, 0x8000 | QP(0, 0, 0, 0));
    o[21] = __builtin_amdgcn_ds_swizzle(v, 0x8000 | QP(3, 2, 1, 0));
    o[22] = __builtin_amdgcn_ds_swizzle(v, 0x8000 | QP(1, 0, 3, 2));
    o[23] = __builtin_amdgcn_ds_swizzle(v, 0x8000 | QP(2, 3, 0, 1));
    o[24] = __builtin_amdgcn_ds_swizzle(v, 0x18 | 0x05 << 5);  // and 0x18, or 5: lane (l & 0x18) | 5 of the half
    o[25] = __builtin_amdgcn_readfirstlane(v);
  }
}
