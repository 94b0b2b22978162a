// mfma942.cl — MFMA shapes that exist on gfx942 only (not gfx90a), kept apart
// from mfma.cl so that file also builds for gfx90a: i8 and fp8 16x16x32 and 32x32x16. Layouts as in mfma.cl.
#include "common.h"
typedef int int4v __attribute__((ext_vector_type(4)));
typedef int int16v __attribute__((ext_vector_type(16)));
typedef float float4v __attribute__((ext_vector_type(4)));
typedef float float16v __attribute__((ext_vector_type(16)));

// i8 16x16x32: lane l holds A[l%16][8*(l/16) + 0..7] as 8 bytes (k = 8*(l/16) + 4*reg + byte), B likewise
// down a column; D (i32) as 16x16x16.
__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void mfma_i8_16x16x32(__global const char *restrict A, __global const char *restrict B,
                               __global int *restrict C, int N, int K) {
  int l = LID_X, m0 = WGID_Y * 16, n0 = WGID_X * 16;
  int4v acc = (int4v)(0);
  for (int k = 0; k < K; k += 32) {
    long a = 0, b = 0;
    for (int e = 0; e < 8; e++) {
      a |= (long)(uchar)A[(m0 + l % 16) * K + k + 8 * (l / 16) + e] << (8 * e);
      b |= (long)(uchar)B[(k + 8 * (l / 16) + e) * N + n0 + l % 16] << (8 * e);
    }
    acc = __builtin_amdgcn_mfma_i32_16x16x32_i8(a, b, acc, 0, 0, 0);
  }
  for (int r = 0; r < 4; r++)
    C[(m0 + 4 * (l / 16) + r) * N + n0 + l % 16] = acc[r];
}

// fp8 x fp8 16x16x32 (E4M3 FNUZ bytes): the i8 layout above, 8 codes per lane.
__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void mfma_fp8_16x16x32(__global const uchar *restrict A, __global const uchar *restrict B,
                                __global float *restrict C, int N, int K) {
  int l = LID_X, m0 = WGID_Y * 16, n0 = WGID_X * 16;
  float4v acc = (float4v)(0.0f);
  for (int k = 0; k < K; k += 32) {
    long a = 0, b = 0;
    for (int e = 0; e < 8; e++) {
      a |= (long)A[(m0 + l % 16) * K + k + 8 * (l / 16) + e] << (8 * e);
      b |= (long)B[(k + 8 * (l / 16) + e) * N + n0 + l % 16] << (8 * e);
    }
    acc = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a, b, acc, 0, 0, 0);
  }
  for (int r = 0; r < 4; r++)
    C[(m0 + 4 * (l / 16) + r) * N + n0 + l % 16] = acc[r];
}

// i8 32x32x16: lane l holds A[l%32][8*(l/32) + 0..7] as 8 bytes, B likewise down a column;
// D (i32) reg r, lane l = C[8*(r/4) + 4*(l/32) + r%4][l%32], as 32x32x8 f16.
__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void mfma_i8_32x32x16(__global const char *restrict A, __global const char *restrict B,
                               __global int *restrict C, int N, int K) {
  int l = LID_X, m0 = WGID_Y * 32, n0 = WGID_X * 32;
  int16v acc = (int16v)(0);
  for (int k = 0; k < K; k += 16) {
    long a = 0, b = 0;
    for (int e = 0; e < 8; e++) {
      a |= (long)(uchar)A[(m0 + l % 32) * K + k + 8 * (l / 32) + e] << (8 * e);
      b |= (long)(uchar)B[(k + 8 * (l / 32) + e) * N + n0 + l % 32] << (8 * e);
    }
    acc = __builtin_amdgcn_mfma_i32_32x32x16_i8(a, b, acc, 0, 0, 0);
  }
  for (int r = 0; r < 16; r++)
    C[(m0 + 8 * (r / 4) + 4 * (l / 32) + r % 4) * N + n0 + l % 32] = acc[r];
}

// fp8 x fp8 32x32x16 (E4M3 FNUZ bytes): the i8 32x32x16 layout above.
__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void mfma_fp8_32x32x16(__global const uchar *restrict A, __global const uchar *restrict B,
                                __global float *restrict C, int N, int K) {
  int l = LID_X, m0 = WGID_Y * 32, n0 = WGID_X * 32;
  float16v acc = (float16v)(0.0f);
  for (int k = 0; k < K; k += 16) {
    long a = 0, b = 0;
    for (int e = 0; e < 8; e++) {
      a |= (long)A[(m0 + l % 32) * K + k + 8 * (l / 32) + e] << (8 * e);
      b |= (long)B[(k + 8 * (l / 32) + e) * N + n0 + l % 32] << (8 * e);
    }
    acc = __builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8(a, b, acc, 0, 0, 0);
  }
  for (int r = 0; r < 16; r++)
    C[(m0 + 8 * (r / 4) + 4 * (l / 32) + r % 4) * N + n0 + l % 32] = acc[r];
}
