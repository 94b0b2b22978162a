// xlane_dpp.cl — every DPP control gfx9 has, on v_mov_b32: quad_perm (all 256
// permutations), row_shl/row_shr/row_ror 1..15, wave_shl/rol/shr/ror 1,
// row_mirror, row_half_mirror, row_bcast:15 and row_bcast:31 (309 controls).
// Each control is applied three ways:
//   0: mov_dpp(v, ctrl, row_mask 0xf, bank_mask 0xf, bound_ctrl on)
//   1: update_dpp(old, v, ctrl, RM(ctrl), BM(ctrl), bound_ctrl off)
//   2: update_dpp(old, v, ctrl, RM(ctrl), BM(ctrl), bound_ctrl on)
// with row/bank masks that vary with the control (RM, BM below; the test
// computes the same formulas). Lanes whose bit in `act` (act_lo | act_hi << 32)
// is clear skip the whole block, so their values are invalid DPP sources:
// with `act` all ones this is the uniform case, with a random mask the
// divergent one. One wave per workgroup; n is a multiple of 64. Results go
// straight to memory (an array of 927 would live in scratch).
#include "common.h"
#define WG 64
#define NCTRL 309
#define RM(c) (1 + ((c) * 7 + 3) % 15)
#define BM(c) (1 + ((c) * 11 + 5) % 15)
#define X(c)                                                                 \
  o[k] = __builtin_amdgcn_mov_dpp(v, (c), 0xf, 0xf, true);                   \
  o[NCTRL + k] = __builtin_amdgcn_update_dpp(old, v, (c), RM(c), BM(c), false); \
  o[2 * NCTRL + k] = __builtin_amdgcn_update_dpp(old, v, (c), RM(c), BM(c), true); \
  k++;
#define X4(c) X(c) X((c) + 1) X((c) + 2) X((c) + 3)
#define X16(c) X4(c) X4((c) + 4) X4((c) + 8) X4((c) + 12)
#define X15(c) X((c) + 1) X((c) + 2) X((c) + 3) X4((c) + 4) X4((c) + 8) X4((c) + 12)

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void xlane_dpp(__global const int *restrict x, __global const int *restrict olds,
                        __global int *restrict out, int n, uint act_lo, uint act_hi) {
  int lane = LID_X;
  int gid = WGID_X * WG + lane;
  int v = x[gid];
  int old = olds[gid];
  uint bits = lane < 32 ? act_lo >> lane : act_hi >> (lane - 32);
  if (bits & 1) {
    __global int *o = out + gid * 3 * NCTRL;
    int k = 0;
    X16(0x00) X16(0x10) X16(0x20) X16(0x30) X16(0x40) X16(0x50) X16(0x60) X16(0x70)
    X16(0x80) X16(0x90) X16(0xa0) X16(0xb0) X16(0xc0) X16(0xd0) X16(0xe0) X16(0xf0)
    X15(0x100) X15(0x110) X15(0x120)
    X(0x130) X(0x134) X(0x138) X(0x13c) X(0x140) X(0x141) X(0x142) X(0x143)
  }
}
