// convert.cl — f32 <-> f16 and f32 <-> bf16 conversions (round to nearest
// even, ties, subnormals, overflow, NaN), round-toward-zero packing, and f16
// arithmetic (scalar and packed). Inputs are chosen by the test to hit ties
// and subnormals; outputs are raw 16-bit patterns so NaN payloads and signed
// zeros compare exactly.
#include "common.h"
#define WG 64
typedef half half2v __attribute__((ext_vector_type(2)));
typedef short short2v __attribute__((ext_vector_type(2)));

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void convert(__global const float *restrict f, __global const ushort *restrict h,
                      __global const ushort *restrict bh, __global ushort *restrict o16,
                      __global float *restrict o32, int n) {
  int gid = WGID_X * WG + LID_X;
  if (gid >= n)
    return;
  float x = f[gid];
  half hx = as_half(h[gid]);
  __global ushort *p = o16 + gid * 8;
  __global float *q = o32 + gid * 3;
  p[0] = as_ushort((half)x);                    // v_cvt_f16_f32 (RNE)
  __bf16 bx = (__bf16)x;                        // no native cvt on gfx942: integer RNE sequence
  p[1] = as_ushort(bx);
  short2v rz = as_short2(__builtin_amdgcn_cvt_pkrtz(x, -x)); // v_cvt_pkrtz_f16_f32
  p[2] = (ushort)rz.x;
  p[3] = (ushort)rz.y;
  half hy = as_half(h[(gid + 1) % n]);
  p[4] = as_ushort((half)(hx + hy));            // v_add_f16
  p[5] = as_ushort((half)(hx * hy));            // v_mul_f16
  half2v v2 = (half2v)(hx, hy);
  half2v w2 = (half2v)(hy, hx);
  half2v r2 = v2 * w2 + v2;                     // packed math (v_pk_fma_f16 or v_pk_mul/add)
  p[6] = as_ushort(r2.x);
  p[7] = as_ushort(r2.y);
  q[0] = (float)hx;                             // v_cvt_f32_f16 (exact)
  q[1] = (float)__builtin_bit_cast(__bf16, bh[gid]); // bf16 -> f32 is a shift
  q[2] = (float)hx * (float)hy;
}
