// xlane_dpp_f32.cl — DPP folded into f32 arithmetic, the form a wave
// reduction takes: for each control c (row_shl/shr/ror 1..15, the wave shifts
// and rotates, row_mirror, row_half_mirror, row_bcast:15/31 and seven
// quad_perms) and a = x + c,
//   out[.][3i]   = a + dpp(a)          (v_add_f32_dpp, invalid source reads 0)
//   out[.][3i+1] = fmax(a, dpp(a))     (v_max_f32_dpp, bound_ctrl: invalid reads 0)
//   out[.][3i+2] = fmin(a, dpp(a))     (v_min_f32_dpp, bound_ctrl: invalid reads 0)
// clang's DPP combiner folds the v_mov_b32_dpp into the VOP2 only when the
// old value is the operation's identity (or bound_ctrl zeroes it) and, for
// max and min, when no NaN canonicalisation intervenes, hence -cl-finite-math-only.
// One wave per workgroup; n is a multiple of 64.
// clang-extra-flags: -cl-finite-math-only
#include "common.h"
#define WG 64
#define NCTRL 60
#define DF(old, v, c, bc) \
  __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(__builtin_bit_cast(int, (float)(old)), \
                                                        __builtin_bit_cast(int, (v)), (c), 0xf, 0xf, (bc)))
#define X(c)                                         \
  {                                                  \
    float a = f + (float)(c);                        \
    o[k] = a + DF(0.0f, a, (c), false);              \
    o[k + 1] = __builtin_fmaxf(a, DF(0.0f, a, (c), true)); \
    o[k + 2] = __builtin_fminf(a, DF(0.0f, a, (c), true)); \
    k += 3;                                          \
  }
#define X15(c) X((c) + 1) X((c) + 2) X((c) + 3) X((c) + 4) X((c) + 5) X((c) + 6) X((c) + 7) X((c) + 8) \
  X((c) + 9) X((c) + 10) X((c) + 11) X((c) + 12) X((c) + 13) X((c) + 14) X((c) + 15)

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void xlane_dpp_f32(__global const float *restrict x, __global float *restrict out, int n) {
  int gid = WGID_X * WG + LID_X;
  float f = x[gid];
  __global float *o = out + gid * 3 * NCTRL;
  int k = 0;
  X15(0x100) X15(0x110) X15(0x120)
  X(0x130) X(0x134) X(0x138) X(0x13c) X(0x140) X(0x141) X(0x142) X(0x143)
  X(0x1b) X(0xb1) X(0x4e) X(0x00) X(0xff) X(0x39) X(0x93)
}
