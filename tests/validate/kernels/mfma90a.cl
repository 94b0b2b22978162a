// mfma90a.cl — MFMA shapes that exist on gfx90a only (gfx940 replaced them): the CDNA2 i8 forms
// v_mfma_i32_16x16x16i8 and v_mfma_i32_32x32x8i8, with 4 i8 per lane in one dword. Layouts
// (CDNA2 ISA guide's MFMA chapter / AMD's Matrix Instruction Calculator), as the f16 forms of mfma.cl:
//   16x16x16: lane l holds A[l%16][4*(l/16) + byte] and B[4*(l/16) + byte][l%16], byte 0..3 from
//             the low end; D (i32) reg r, lane l = C[4*(l/16)+r][l%16]
//   32x32x8:  lane l holds A[l%32][4*(l/32) + byte] and B[4*(l/32) + byte][l%32];
//             D reg r, lane l = C[8*(r/4)+4*(l/32)+r%4][l%32]
#include "common.h"
typedef int int4v __attribute__((ext_vector_type(4)));
typedef int int16v __attribute__((ext_vector_type(16)));

// 4 consecutive k of one row of A (stride 1) or one column of B (stride N), packed low byte first
static int pack4(__global const char *p, int stride) {
  int v = 0;
  for (int e = 0; e < 4; e++)
    v |= (int)(uchar)p[e * stride] << (8 * e);
  return v;
}

__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void mfma_i8_16x16x16(__global const char *restrict A, __global const char *restrict B,
                               __global int *restrict C, int N, int K) {
  int l = LID_X, m0 = WGID_Y * 16, n0 = WGID_X * 16;
  int4v acc = (int4v)(0);
  for (int k = 0; k < K; k += 16) {
    int a = pack4(A + (m0 + l % 16) * K + k + 4 * (l / 16), 1);
    int b = pack4(B + (k + 4 * (l / 16)) * N + n0 + l % 16, N);
    acc = __builtin_amdgcn_mfma_i32_16x16x16i8(a, b, acc, 0, 0, 0);
  }
  for (int r = 0; r < 4; r++)
    C[(m0 + 4 * (l / 16) + r) * N + n0 + l % 16] = acc[r];
}

__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void mfma_i8_32x32x8(__global const char *restrict A, __global const char *restrict B,
                              __global int *restrict C, int N, int K) {
  int l = LID_X, m0 = WGID_Y * 32, n0 = WGID_X * 32;
  int16v acc = (int16v)(0);
  for (int k = 0; k < K; k += 8) {
    int a = pack4(A + (m0 + l % 32) * K + k + 4 * (l / 32), 1);
    int b = pack4(B + (k + 4 * (l / 32)) * N + n0 + l % 32, N);
    acc = __builtin_amdgcn_mfma_i32_32x32x8i8(a, b, acc, 0, 0, 0);
  }
  for (int r = 0; r < 16; r++)
    C[(m0 + 8 * (r / 4) + 4 * (l / 32) + r % 4) * N + n0 + l % 32] = acc[r];
}
