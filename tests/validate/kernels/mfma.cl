// mfma.cl — GEMM tiles on the matrix cores: C[M][N] (f32) = A[M][K] * B[K][N]
// with f16 or bf16 inputs (bf16 passed as raw 16-bit patterns), one wave per
// output tile, tiles spread over a 2-D grid of workgroups. Operands go
// straight from global memory into the MFMA lane layouts (AMD's CDNA3 ISA guide / Matrix Instruction Calculator):
//   16x16x16: lane l holds A[l%16][4*(l/16)+0..3] and B[4*(l/16)+0..3][l%16];
//             D reg r, lane l = C[4*(l/16)+r][l%16]
//   32x32x8:  lane l holds A[l%32][4*(l/32)+0..3] and B[4*(l/32)+0..3][l%32];
//             D reg r, lane l = C[8*(r/4)+4*(l/32)+r%4][l%32]
// K is a kernel argument (multiple of the MFMA k), so the k loop is uniform.
#include "common.h"
typedef half half4 __attribute__((ext_vector_type(4)));
typedef short short4v __attribute__((ext_vector_type(4)));
typedef float float4v __attribute__((ext_vector_type(4)));
typedef float float16v __attribute__((ext_vector_type(16)));

#define LOAD4(T, V, P, row, k0, ld) /* 4 consecutive k for one row/col */ \
  ((V)((P)[(row) * (ld) + (k0)], (P)[(row) * (ld) + (k0) + 1], (P)[(row) * (ld) + (k0) + 2], \
       (P)[(row) * (ld) + (k0) + 3]))
#define LOADB4(V, P, col, k0, ld) \
  ((V)((P)[(k0) * (ld) + (col)], (P)[((k0) + 1) * (ld) + (col)], (P)[((k0) + 2) * (ld) + (col)], \
       (P)[((k0) + 3) * (ld) + (col)]))

__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void mfma_f16_16x16x16(__global const half *restrict A, __global const half *restrict B,
                                __global float *restrict C, int N, int K) {
  int l = LID_X, m0 = WGID_Y * 16, n0 = WGID_X * 16;
  float4v acc = (float4v)(0.0f);
  for (int k = 0; k < K; k += 16) {
    half4 a = LOAD4(half, half4, A, m0 + l % 16, k + 4 * (l / 16), K);
    half4 b = LOADB4(half4, B, n0 + l % 16, k + 4 * (l / 16), N);
    acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, acc, 0, 0, 0);
  }
  for (int r = 0; r < 4; r++)
    C[(m0 + 4 * (l / 16) + r) * N + n0 + l % 16] = acc[r];
}

__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void mfma_f16_32x32x8(__global const half *restrict A, __global const half *restrict B,
                               __global float *restrict C, int N, int K) {
  int l = LID_X, m0 = WGID_Y * 32, n0 = WGID_X * 32;
  float16v acc = (float16v)(0.0f);
  for (int k = 0; k < K; k += 8) {
    half4 a = LOAD4(half, half4, A, m0 + l % 32, k + 4 * (l / 32), K);
    half4 b = LOADB4(half4, B, n0 + l % 32, k + 4 * (l / 32), N);
    acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
  }
  for (int r = 0; r < 16; r++)
    C[(m0 + 8 * (r / 4) + 4 * (l / 32) + r % 4) * N + n0 + l % 32] = acc[r];
}

__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void mfma_bf16_16x16x16(__global const short *restrict A, __global const short *restrict B,
                                 __global float *restrict C, int N, int K) {
  int l = LID_X, m0 = WGID_Y * 16, n0 = WGID_X * 16;
  float4v acc = (float4v)(0.0f);
  for (int k = 0; k < K; k += 16) {
    short4v a = LOAD4(short, short4v, A, m0 + l % 16, k + 4 * (l / 16), K);
    short4v b = LOADB4(short4v, B, n0 + l % 16, k + 4 * (l / 16), N);
    acc = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, acc, 0, 0, 0);
  }
  for (int r = 0; r < 4; r++)
    C[(m0 + 4 * (l / 16) + r) * N + n0 + l % 16] = acc[r];
}

__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void mfma_bf16_32x32x8(__global const short *restrict A, __global const short *restrict B,
                                __global float *restrict C, int N, int K) {
  int l = LID_X, m0 = WGID_Y * 32, n0 = WGID_X * 32;
  float16v acc = (float16v)(0.0f);
  for (int k = 0; k < K; k += 8) {
    short4v a = LOAD4(short, short4v, A, m0 + l % 32, k + 4 * (l / 32), K);
    short4v b = LOADB4(short4v, B, n0 + l % 32, k + 4 * (l / 32), N);
    acc = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, acc, 0, 0, 0);
  }
  for (int r = 0; r < 16; r++)
    C[(m0 + 8 * (r / 4) + 4 * (l / 32) + r % 4) * N + n0 + l % 32] = acc[r];
}

// f32 16x16x4: lane l holds A[l%16][l/16] and B[l/16][l%16] (one value each); D as 16x16x16.
__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void mfma_f32_16x16x4(__global const float *restrict A, __global const float *restrict B,
                               __global float *restrict C, int N, int K) {
  int l = LID_X, m0 = WGID_Y * 16, n0 = WGID_X * 16;
  float4v acc = (float4v)(0.0f);
  for (int k = 0; k < K; k += 4)
    acc = __builtin_amdgcn_mfma_f32_16x16x4f32(A[(m0 + l % 16) * K + k + l / 16], B[(k + l / 16) * N + n0 + l % 16],
                                               acc, 0, 0, 0);
  for (int r = 0; r < 4; r++)
    C[(m0 + 4 * (l / 16) + r) * N + n0 + l % 16] = acc[r];
}

// f64 16x16x4: lane l holds A[l%16][l/16] and B[l/16][l%16]; D (f64) reg r, lane l = C[4*(l/16)+r][l%16].
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double double4v __attribute__((ext_vector_type(4)));
__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void mfma_f64_16x16x4(__global const double *restrict A, __global const double *restrict B,
                               __global double *restrict C, int N, int K) {
  int l = LID_X, m0 = WGID_Y * 16, n0 = WGID_X * 16;
  double4v acc = (double4v)(0.0);
  for (int k = 0; k < K; k += 4)
    acc = __builtin_amdgcn_mfma_f64_16x16x4f64(A[(m0 + l % 16) * K + k + l / 16], B[(k + l / 16) * N + n0 + l % 16],
                                               acc, 0, 0, 0);
  for (int r = 0; r < 4; r++)
    C[(m0 + 4 * (l / 16) + r) * N + n0 + l % 16] = acc[r];
}
