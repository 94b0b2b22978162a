// bits.cl — the integer and packed instructions a GEMM/attention compiler
// leans on, through AMDGPU builtins and small-type arithmetic: v_perm_b32,
// v_alignbit_b32, v_bfe_u32/i32, v_med3_f32, packed f16 with swizzled halves
// (op_sel), 8- and 16-bit
// arithmetic (SDWA or 16-bit VALU), byte/short loads and stores with sign
// extension, and 96/128-bit global loads.
#include "common.h"
#define WG 64
typedef half half2v __attribute__((ext_vector_type(2)));
typedef short short2v __attribute__((ext_vector_type(2)));
typedef char char4v __attribute__((ext_vector_type(4)));
typedef uchar uchar4v __attribute__((ext_vector_type(4)));
typedef uint uint3v __attribute__((ext_vector_type(3)));
typedef uint uint4v __attribute__((ext_vector_type(4)));

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void bits(__global const uint *restrict u, __global const uint *restrict w,
                   __global const char *restrict c8, __global const short *restrict s16,
                   __global const float *restrict f, __global uint *restrict o, __global char *restrict o8,
                   __global short *restrict o16, int n) {
  int gid = WGID_X * WG + LID_X;
  if (gid >= n)
    return;
  uint a = u[gid], b = w[gid];
  __global uint *p = o + gid * 16;
  p[0] = __builtin_amdgcn_perm(a, b, 0x0c050a01u);      // byte select incl. constant 0 (selector 0x0c)
  p[1] = __builtin_amdgcn_alignbit(a, b, b & 31);
  p[2] = __builtin_amdgcn_ubfe(a, b & 31, (b >> 8) & 31);
  p[3] = (uint)__builtin_amdgcn_sbfe((int)a, b & 31, (b >> 8) & 31);
  float fa = f[gid], fb = f[(gid + 1) % n], fc = f[(gid + 2) % n];
  p[4] = as_uint(__builtin_amdgcn_fmed3f(fa, fb, fc));
  p[5] = a + b;  // slots 5..7: plain VALU, keeps the output layout of dot.cl's kernel
  p[6] = a - b;
  p[7] = a * b;
  // swizzled halves (op_sel on packed math); magnitudes in [2^-7, 2) keep the test's double reference exact
  half2v ma = as_half2((a & 0x3fff3fffu) | 0x20002000u), mb = as_half2((b & 0x3fff3fffu) | 0x20002000u);
  half2v sw = ma.yx * mb + ma.xx;
  p[8] = as_uint(sw);
  uint3v v3 = *(__global const uint3v *)(u + (gid / 4) * 4);   // 12-byte load
  uint4v v4 = *(__global const uint4v *)(w + (gid / 4) * 4);   // 16-byte load
  p[9] = v3.x ^ v3.y ^ v3.z;
  p[10] = v4.x + v4.y + v4.z + v4.w;
  char4v ca = as_char4(a), cb = as_char4(b);
  char4v cs = ca + cb * (char)3;                         // i8 lanes: 8-bit arithmetic
  p[11] = as_uint(cs);
  short2v sa = as_short2(a), sb = as_short2(b);
  p[12] = as_uint((short2v)(sa.x * sb.y, sa.y >> 3)); // i16 mul, arithmetic shift of the high half
  p[13] = (uint)(int)c8[gid] + (uint)(int)s16[gid] * 1000u; // sign-extending loads
  p[14] = (uint)__builtin_popcount(a ^ b) | (uint)__builtin_clz(a | 1) << 8 | (uint)__builtin_ctz(b | 0x80000000u) << 16;
  p[15] = (uint)(uchar)c8[gid] * 65536u + (ushort)s16[gid];  // zero-extending
  o8[gid] = (char)(c8[gid] * 5 - 7);
  o16[gid] = (short)(s16[gid] * 3 + (short)(a >> 20));
}
