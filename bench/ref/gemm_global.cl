// gemm_global.cl — the clang-19 side of `make bench-profile`
// (bench/profile_report.c) for examples/gemm_global.json: the tiling of
// tests/validate/kernels/gemm_lds.cl without LDS. C[M][N] (f32) =
// A[M][K] (f16) * B[N][K]^T (f16); a workgroup of 4 waves owns a 64x64 tile,
// each wave a 32x32 quarter as 2x2 blocks of v_mfma_f32_16x16x16_f16 whose
// operands every lane loads straight from global memory (lane l: row l%16,
// the 4 k values from 4*(l/16)), K steps of 32. Requires M, N multiples of
// 64 and K of 32; the launch grid is M/64 x N/64.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

typedef half v4h __attribute__((ext_vector_type(4)));
typedef float v4f __attribute__((ext_vector_type(4)));

__attribute__((reqd_work_group_size(256, 1, 1)))
__kernel void gemm_global(__global const half *restrict A, __global const half *restrict B,
                          __global float *restrict C, int M, int N, int K)
{
  int t = (int)__builtin_amdgcn_workitem_id_x();
  int lane = t & 63, wave = t >> 6;
  int qm = (int)__builtin_amdgcn_workgroup_id_x() * 64 + (wave & 1) * 32;
  int qn = (int)__builtin_amdgcn_workgroup_id_y() * 64 + (wave >> 1) * 32;
  int li = lane & 15, lk = (lane >> 4) * 4;
  __global const half *a0p = A + (size_t)(qm + li) * K + lk, *a1p = a0p + (size_t)16 * K;
  __global const half *b0p = B + (size_t)(qn + li) * K + lk, *b1p = b0p + (size_t)16 * K;
  v4f acc00 = 0, acc01 = 0, acc10 = 0, acc11 = 0;
  for (int k = 0; k < K; k += 32) {
    for (int kk = k; kk < k + 32; kk += 16) {
      v4h a0 = *(__global const v4h *)(a0p + kk), a1 = *(__global const v4h *)(a1p + kk);
      v4h b0 = *(__global const v4h *)(b0p + kk), b1 = *(__global const v4h *)(b1p + kk);
      acc00 = __builtin_amdgcn_mfma_f32_16x16x16f16(a0, b0, acc00, 0, 0, 0);
      acc01 = __builtin_amdgcn_mfma_f32_16x16x16f16(a0, b1, acc01, 0, 0, 0);
      acc10 = __builtin_amdgcn_mfma_f32_16x16x16f16(a1, b0, acc10, 0, 0, 0);
      acc11 = __builtin_amdgcn_mfma_f32_16x16x16f16(a1, b1, acc11, 0, 0, 0);
    }
  }
  int r = qm + lk, c = qn + li;
  for (int e = 0; e < 4; e++) {
    C[(size_t)(r + e) * N + c] = acc00[e];
    C[(size_t)(r + e) * N + c + 16] = acc01[e];
    C[(size_t)(r + 16 + e) * N + c] = acc10[e];
    C[(size_t)(r + 16 + e) * N + c + 16] = acc11[e];
  }
}
