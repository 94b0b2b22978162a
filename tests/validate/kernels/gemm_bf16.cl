// gemm_bf16.cl — a bf16 GEMM in the shape our compiler will emit:
// C[M][N] (f32) = A[M][K] (bf16) * B[K][N] (bf16), 64x64 output tiles per
// workgroup of 4 waves (2x2), each wave one 32x32 block with
// v_mfma_f32_32x32x8_bf16; A and B tiles (64x16 and 16x64 per K step) staged
// through LDS with a row pad and barriers, B read column-wise from LDS.
// Operand layouts as in mfma.cl. M, N multiples of 64, K a multiple of 16.
#include "common.h"
typedef short short4v __attribute__((ext_vector_type(4)));
typedef float float16v __attribute__((ext_vector_type(16)));
#define BM 64
#define BN 64
#define BK 16
#define PAD 2

__attribute__((reqd_work_group_size(256, 1, 1)))
__kernel void gemm_bf16(__global const short *restrict A, __global const short *restrict B, __global float *restrict C,
                        int M, int N, int K) {
  __local short As[BM][BK + PAD];
  __local short Bs[BK][BN + PAD];
  int t = LID_X, lane = t % 64, wave = t / 64;
  int wm = wave % 2, wn = wave / 2;
  int m0 = WGID_Y * BM, n0 = WGID_X * BN;
  float16v acc = (float16v)(0.0f);
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int e = t; e < BM * BK; e += 256)                 // 4 elements per work-item per tile
      As[e / BK][e % BK] = A[(m0 + e / BK) * K + k0 + e % BK];
    for (int e = t; e < BK * BN; e += 256)
      Bs[e / BN][e % BN] = B[(k0 + e / BN) * N + n0 + e % BN];
    BARRIER();
    for (int kk = 0; kk < BK; kk += 8) {
      int row = wm * 32 + lane % 32, col = wn * 32 + lane % 32, k = kk + 4 * (lane / 32);
      short4v a = (short4v)(As[row][k], As[row][k + 1], As[row][k + 2], As[row][k + 3]);
      short4v b = (short4v)(Bs[k][col], Bs[k + 1][col], Bs[k + 2][col], Bs[k + 3][col]);
      acc = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, acc, 0, 0, 0);
    }
    BARRIER();
  }
  for (int r = 0; r < 16; r++) {
    int row = m0 + wm * 32 + 8 * (r / 4) + 4 * (lane / 32) + r % 4, col = n0 + wn * 32 + lane % 32;
    C[row * N + col] = acc[r];
  }
}
