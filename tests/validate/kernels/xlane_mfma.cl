// xlane_mfma.cl — the GEMM inner loop the compiler emits: C = alpha * (2 C0 +
// A * B) with f16 A[M][K], B[K][N] and f32 C0, C[M][N], one wave per output
// tile, the accumulator set from C0 on the VALU, then a K loop of two MFMAs per
// iteration accumulating in place (srcC == vdst), then scaled on the VALU.
// Each shape is built twice: by default clang keeps the accumulator in AGPRs
// (v_accvgpr_write to fill it, v_accvgpr_read for the VALU), and with
// amdgpu_waves_per_eu(2) (at most 256 VGPRs) it selects the VGPR form of the
// MFMA instead. Lane layouts (AMD's CDNA3 ISA guide):
//   16x16x16: lane l holds A[l%16][4*(l/16)+0..3] and B[4*(l/16)+0..3][l%16];
//             D reg r, lane l = C[4*(l/16)+r][l%16]
//   32x32x8:  lane l holds A[l%32][4*(l/32)+0..3] and B[4*(l/32)+0..3][l%32];
//             D reg r, lane l = C[8*(r/4)+4*(l/32)+r%4][l%32]
// K is a kernel argument, a multiple of twice the MFMA's k.
// The *_zero kernels compute C = alpha * A * B (C0 unread): the first MFMA
// starts from a zero accumulator, which clang gives as the inline constant 0
// in srcC (`v_mfma ... , 0`), the form isel/mma.c emits for a zero
// `register` accumulator.
#include "common.h"
typedef half half4 __attribute__((ext_vector_type(4)));
typedef float float4v __attribute__((ext_vector_type(4)));
typedef float float16v __attribute__((ext_vector_type(16)));

#define AOP(row, k0) ((half4)(A[(row) * K + (k0)], A[(row) * K + (k0) + 1], A[(row) * K + (k0) + 2], A[(row) * K + (k0) + 3]))
#define BOP(col, k0) ((half4)(B[(k0) * N + (col)], B[((k0) + 1) * N + (col)], B[((k0) + 2) * N + (col)], B[((k0) + 3) * N + (col)]))

#define BODY_16                                                                          \
  int l = LID_X, m0 = WGID_Y * 16, n0 = WGID_X * 16;                                     \
  float4v acc;                                                                           \
  for (int r = 0; r < 4; r++)                                                            \
    acc[r] = 2.0f * C0[(m0 + 4 * (l / 16) + r) * N + n0 + l % 16];                              \
  for (int k = 0; k < K; k += 32) {                                                      \
    int ka = k + 4 * (l / 16), kb = k + 16 + 4 * (l / 16);                               \
    acc = __builtin_amdgcn_mfma_f32_16x16x16f16(AOP(m0 + l % 16, ka), BOP(n0 + l % 16, ka), acc, 0, 0, 0); \
    acc = __builtin_amdgcn_mfma_f32_16x16x16f16(AOP(m0 + l % 16, kb), BOP(n0 + l % 16, kb), acc, 0, 0, 0); \
  }                                                                                      \
  for (int r = 0; r < 4; r++)                                                            \
    C[(m0 + 4 * (l / 16) + r) * N + n0 + l % 16] = acc[r] * alpha;

#define BODY_32                                                                          \
  int l = LID_X, m0 = WGID_Y * 32, n0 = WGID_X * 32;                                     \
  float16v acc;                                                                          \
  for (int r = 0; r < 16; r++)                                                           \
    acc[r] = 2.0f * C0[(m0 + 8 * (r / 4) + 4 * (l / 32) + r % 4) * N + n0 + l % 32];            \
  for (int k = 0; k < K; k += 16) {                                                      \
    int ka = k + 4 * (l / 32), kb = k + 8 + 4 * (l / 32);                                \
    acc = __builtin_amdgcn_mfma_f32_32x32x8f16(AOP(m0 + l % 32, ka), BOP(n0 + l % 32, ka), acc, 0, 0, 0); \
    acc = __builtin_amdgcn_mfma_f32_32x32x8f16(AOP(m0 + l % 32, kb), BOP(n0 + l % 32, kb), acc, 0, 0, 0); \
  }                                                                                      \
  for (int r = 0; r < 16; r++)                                                           \
    C[(m0 + 8 * (r / 4) + 4 * (l / 32) + r % 4) * N + n0 + l % 32] = acc[r] * alpha;

/* the first MFMA with srcC = 0, the rest of K accumulated in place */
#define BODY_ZERO(SH, KK, FN)                                                            \
  int l = LID_X, m0 = WGID_Y * SH, n0 = WGID_X * SH;                                     \
  ACC_##SH acc = FN(AOP(m0 + l % SH, 4 * (l / SH)), BOP(n0 + l % SH, 4 * (l / SH)), (ACC_##SH)0, 0, 0, 0); \
  for (int k = KK; k < K; k += KK) {                                                     \
    int ka = k + 4 * (l / SH);                                                           \
    acc = FN(AOP(m0 + l % SH, ka), BOP(n0 + l % SH, ka), acc, 0, 0, 0);                  \
  }                                                                                      \
  STORE_##SH
#define ACC_16 float4v
#define ACC_32 float16v
#define STORE_16                                                                         \
  for (int r = 0; r < 4; r++)                                                            \
    C[(m0 + 4 * (l / 16) + r) * N + n0 + l % 16] = acc[r] * alpha;
#define STORE_32                                                                         \
  for (int r = 0; r < 16; r++)                                                           \
    C[(m0 + 8 * (r / 4) + 4 * (l / 32) + r % 4) * N + n0 + l % 32] = acc[r] * alpha;

#define ARGS __global const half *restrict A, __global const half *restrict B, __global const float *restrict C0, \
             __global float *restrict C, int N, int K, float alpha

__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void xlane_mfma16_agpr(ARGS) { BODY_16 }
__attribute__((reqd_work_group_size(64, 1, 1), amdgpu_waves_per_eu(2)))
__kernel void xlane_mfma16_vgpr(ARGS) { BODY_16 }
__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void xlane_mfma32_agpr(ARGS) { BODY_32 }
__attribute__((reqd_work_group_size(64, 1, 1), amdgpu_waves_per_eu(2)))
__kernel void xlane_mfma32_vgpr(ARGS) { BODY_32 }
__attribute__((reqd_work_group_size(64, 1, 1), amdgpu_waves_per_eu(2)))
__kernel void xlane_mfma16_zero(ARGS) { BODY_ZERO(16, 16, __builtin_amdgcn_mfma_f32_16x16x16f16) }
__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void xlane_mfma16_zero_agpr(ARGS) { BODY_ZERO(16, 16, __builtin_amdgcn_mfma_f32_16x16x16f16) }
__attribute__((reqd_work_group_size(64, 1, 1), amdgpu_waves_per_eu(2)))
__kernel void xlane_mfma32_zero(ARGS) { BODY_ZERO(32, 8, __builtin_amdgcn_mfma_f32_32x32x8f16) }
