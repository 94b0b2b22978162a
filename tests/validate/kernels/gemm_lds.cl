// gemm_lds.cl — the project's LDS-staged GEMM reference kernel, written for
// wavecc (used by tests/validate/mfma_test.c, bench/validate_bench.c and, as
// the clang-19 side of `make bench-compile`, bench/compile_bench.c).
//
//   C[M][N] (f32) = A[M][K] (f16) * B[N][K]^T (f16)
//
// One workgroup of 256 work-items (4 waves) computes a 64x64 tile of C. Each
// K step of 32 stages a 64x32 slice of A and of B in LDS: work-item t copies
// 8 consecutive halves (one 128-bit load and store) of row t/4, columns
// 8*(t%4).. of each. LDS rows are padded from 32 to 40 halves (80 bytes, still
// 16-byte aligned for the 128-bit stores) so the MFMA operand reads of
// neighbouring rows fall in different banks. The waves form a 2x2 grid, each
// owning a 32x32 quarter as 2x2 blocks of v_mfma_f32_16x16x16_f16, whose
// operand layout is: lane l supplies row (or column of B^T) l%16 and the 4
// consecutive k values 4*(l/16).., and receives C rows 4*(l/16)+0..3 of
// column l%16. Requires M and N multiples of 64 and K a multiple of 32 (the
// launch descriptor's grid is M/64 x N/64). Self-contained: it needs no
// header, so it compiles from anywhere with
//   clang-19 -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O3
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define TILE 64
#define KSTEP 32
#define ROW (KSTEP + 8)

typedef half v4h __attribute__((ext_vector_type(4)));
typedef half v8h __attribute__((ext_vector_type(8)));
typedef float v4f __attribute__((ext_vector_type(4)));

static void sync_workgroup(void)
{
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

__attribute__((reqd_work_group_size(256, 1, 1)))
__kernel void gemm_lds(__global const half *restrict A, __global const half *restrict B,
                       __global float *restrict C, int M, int N, int K)
{
  __local half sa[TILE * ROW], sb[TILE * ROW];
  int t = (int)__builtin_amdgcn_workitem_id_x();
  int lane = t & 63, wave = t >> 6;
  int row0 = (int)__builtin_amdgcn_workgroup_id_x() * TILE;
  int col0 = (int)__builtin_amdgcn_workgroup_id_y() * TILE;
  int qm = (wave & 1) * 32, qn = (wave >> 1) * 32; /* this wave's quarter */
  int crow = t >> 2, ccol = (t & 3) * 8;           /* this work-item's copy slot */
  int li = lane & 15, lk = (lane >> 4) * 4;         /* MFMA operand position */

  v4f acc00 = 0, acc01 = 0, acc10 = 0, acc11 = 0;
  for (int k = 0; k < K; k += KSTEP) {
    *(__local v8h *)&sa[crow * ROW + ccol] = *(__global const v8h *)&A[(size_t)(row0 + crow) * K + k + ccol];
    *(__local v8h *)&sb[crow * ROW + ccol] = *(__global const v8h *)&B[(size_t)(col0 + crow) * K + k + ccol];
    sync_workgroup();
    for (int kk = 0; kk < KSTEP; kk += 16) {
      v4h a0 = *(__local v4h *)&sa[(qm + li) * ROW + kk + lk];
      v4h a1 = *(__local v4h *)&sa[(qm + 16 + li) * ROW + kk + lk];
      v4h b0 = *(__local v4h *)&sb[(qn + li) * ROW + kk + lk];
      v4h b1 = *(__local v4h *)&sb[(qn + 16 + li) * ROW + kk + lk];
      acc00 = __builtin_amdgcn_mfma_f32_16x16x16f16(a0, b0, acc00, 0, 0, 0);
      acc01 = __builtin_amdgcn_mfma_f32_16x16x16f16(a0, b1, acc01, 0, 0, 0);
      acc10 = __builtin_amdgcn_mfma_f32_16x16x16f16(a1, b0, acc10, 0, 0, 0);
      acc11 = __builtin_amdgcn_mfma_f32_16x16x16f16(a1, b1, acc11, 0, 0, 0);
    }
    sync_workgroup(); /* the slice is consumed before the next one overwrites it */
  }
  int r = row0 + qm + lk, c = col0 + qn + li;
  for (int e = 0; e < 4; e++) {
    C[(size_t)(r + e) * N + c] = acc00[e];
    C[(size_t)(r + e) * N + c + 16] = acc01[e];
    C[(size_t)(r + 16 + e) * N + c] = acc10[e];
    C[(size_t)(r + 16 + e) * N + c + 16] = acc11[e];
  }
}
