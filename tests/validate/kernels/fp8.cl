// fp8.cl — gfx942's 8-bit float formats (FNUZ variants: E4M3 "fp8" with bias
// 8, E5M2 "bf8" with bias 16, 0x80 the only NaN, no infinities, no negative
// zero): decoding every byte code from each byte position of a dword
// (v_cvt_f32_fp8 / v_cvt_f32_bf8 with byte select), and encoding pairs of f32
// values with round to nearest even into either half of a dword
// (v_cvt_pk_fp8_f32 / v_cvt_pk_bf8_f32, word select keeping the other half).
// Inputs stay inside the formats' ranges: overflow and the sign of an
// underflowing negative are not pinned down (the CDNA3 ISA guide leaves them open).
#include "common.h"
#define WG 64

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void fp8(__global const float *restrict a, __global const float *restrict b, __global float *restrict dec,
                  __global uint *restrict enc, int n) {
  int g = WGID_X * WG + LID_X;
  if (g >= n)
    return;
  int code = g % 256;
  int src = (code << 8 * (g % 4)) | (0x5a5a5a5a & ~(0xff << 8 * (g % 4)));
  __global float *d = dec + g * 2;
  switch (g % 4) { // byte_sel must be a constant
  case 0: d[0] = __builtin_amdgcn_cvt_f32_fp8(src, 0); d[1] = __builtin_amdgcn_cvt_f32_bf8(src, 0); break;
  case 1: d[0] = __builtin_amdgcn_cvt_f32_fp8(src, 1); d[1] = __builtin_amdgcn_cvt_f32_bf8(src, 1); break;
  case 2: d[0] = __builtin_amdgcn_cvt_f32_fp8(src, 2); d[1] = __builtin_amdgcn_cvt_f32_bf8(src, 2); break;
  default: d[0] = __builtin_amdgcn_cvt_f32_fp8(src, 3); d[1] = __builtin_amdgcn_cvt_f32_bf8(src, 3); break;
  }
  float x = a[g], y = b[g];
  int old = 0x13572468;
  __global uint *e = enc + g * 4;
  e[0] = (uint)__builtin_amdgcn_cvt_pk_fp8_f32(x, y, old, false); // bytes 0, 1; bytes 2, 3 kept from old
  e[1] = (uint)__builtin_amdgcn_cvt_pk_fp8_f32(y, x, old, true);  // bytes 2, 3; bytes 0, 1 kept
  float xs = x * 256.0f, ys = y * 256.0f;                         // E5M2 range, scaled exactly
  e[2] = (uint)__builtin_amdgcn_cvt_pk_bf8_f32(xs, ys, old, false);
  e[3] = (uint)__builtin_amdgcn_cvt_pk_bf8_f32(ys, xs, old, true);
}
