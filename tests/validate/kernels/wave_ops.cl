// wave_ops.cl — cross-lane operations in one wave64: a DPP inclusive scan
// (row_shr 1/2/4/8, row_bcast15, row_bcast31), DPP permutations (quad_perm,
// row_mirror, row_half_mirror, row_ror, row_shl, wave_shr), a ds_bpermute
// butterfly max, ds_swizzle in bitmask and quad mode, v_readlane,
// v_readfirstlane inside a divergent branch, ballot and mbcnt. Each
// workgroup is one wave; lanes past n read 0 but still take part.
#include "common.h"
#define WG 64
#define DPP(v, ctrl) __builtin_amdgcn_update_dpp(0, (v), (ctrl), 0xf, 0xf, false)
#define QUAD_PERM(a, b, c, d) ((a) | (b) << 2 | (c) << 4 | (d) << 6)
#define ROW_SHL(n) (0x100 + (n))
#define ROW_SHR(n) (0x110 + (n))
#define ROW_ROR(n) (0x120 + (n))
#define WAVE_SHR1 0x138
#define ROW_MIRROR 0x140
#define ROW_HALF_MIRROR 0x141
#define ROW_BCAST15 0x142
#define ROW_BCAST31 0x143
#define NOUT 12

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void wave_ops(__global const int *restrict x, __global int *restrict out, int n) {
  int lane = LID_X;
  int gid = WGID_X * WG + lane;
  int v = gid < n ? x[gid] : 0;
  // inclusive prefix sum over the wave
  int s = v;
  s += DPP(s, ROW_SHR(1));
  s += DPP(s, ROW_SHR(2));
  s += DPP(s, ROW_SHR(4));
  s += DPP(s, ROW_SHR(8));
  s += __builtin_amdgcn_update_dpp(0, s, ROW_BCAST15, 0xa, 0xf, false);
  s += __builtin_amdgcn_update_dpp(0, s, ROW_BCAST31, 0xc, 0xf, false);
  int total = __builtin_amdgcn_readlane(s, 63);
  // butterfly max through ds_bpermute (byte addresses)
  int m = v;
  for (int k = 1; k < 64; k <<= 1) {
    int o = __builtin_amdgcn_ds_bpermute((lane ^ k) * 4, m);
    m = o > m ? o : m;
  }
  int perm = __builtin_amdgcn_mov_dpp(v, QUAD_PERM(3, 2, 0, 1), 0xf, 0xf, true);
  int mir = __builtin_amdgcn_mov_dpp(v, ROW_MIRROR, 0xf, 0xf, true);
  int hmir = __builtin_amdgcn_mov_dpp(v, ROW_HALF_MIRROR, 0xf, 0xf, true);
  int ror = __builtin_amdgcn_mov_dpp(v, ROW_ROR(3), 0xf, 0xf, true);
  // row_shl with bound_ctrl off keeps the old value (here: 7) for lanes whose source is outside the row
  int shl = __builtin_amdgcn_update_dpp(7, v, ROW_SHL(5), 0xf, 0xf, false);
  int wshr = __builtin_amdgcn_mov_dpp(v, WAVE_SHR1, 0xf, 0xf, true);
  // bitmask swizzle: and 0x1c, or 0x01, xor 0x02 within each 32-lane half
  int swz = __builtin_amdgcn_ds_swizzle(v, 0x1c | 0x01 << 5 | 0x02 << 10);
  int swq = __builtin_amdgcn_ds_swizzle(v, 0x8000 | QUAD_PERM(1, 0, 3, 2));
  int first = -1;
  if (lane % 3 == 2)
    first = __builtin_amdgcn_readfirstlane(v + 1000);
  unsigned long bal = __builtin_amdgcn_ballot_w64(v > 0);
  int below = (int)__builtin_amdgcn_mbcnt_hi((unsigned)(bal >> 32), __builtin_amdgcn_mbcnt_lo((unsigned)bal, 0u));
  if (gid < n) {
    __global int *o = out + gid * NOUT;
    o[0] = s;
    o[1] = total;
    o[2] = m;
    o[3] = perm;
    o[4] = mir;
    o[5] = hmir;
    o[6] = ror;
    o[7] = shl;
    o[8] = wshr;
    o[9] = swz + swq * 65536;
    o[10] = first;
    o[11] = below + (int)__builtin_popcountl(bal) * 256;
  }
}
