// gemm_lds_tiled.cl — the clang-19 side of `make bench-schedule`
// (bench/schedule_report.c): tests/validate/kernels/gemm_lds.cl's algorithm
// with its tiling as preprocessor macros, so clang-19 -O3 compiles the same
// tiling as each of wavecc's GEMM rows.
//
//   C[M][N] (f32) = A[M][K] (f16) * B[N][K]^T (f16)
//
// -D BM, BN, BK: the workgroup's tile of C and its K step (default 64, 64,
// 32); -D WAVES_M, WAVES_N: its grid of waves (default 2x2). The workgroup is
// (64 * WAVES_M) x WAVES_N work-items, as wavecc lays out its waves: x
// indexes waves along M, y along N; workgroup (x, y) owns rows BM*x.. and
// columns BN*y.. of C. Each K step stages a BM x BK slice of A and a BN x BK
// slice of B in LDS, 8 consecutive halves (one 128-bit load and store) per
// work-item and chunk; LDS rows are padded by 8 halves (16 bytes) so the
// 128-bit stores stay aligned and the operand reads of neighbouring rows
// fall in different banks. Each wave owns a (BM/WAVES_M) x (BN/WAVES_N) block
// as 16x16 blocks of v_mfma_f32_16x16x16_f16, whose operand layout is: lane
// l supplies row (or column of B^T) l%16 and the 4 consecutive k values
// 4*(l/16).., and receives C rows 4*(l/16)+0..3 of column l%16. Requires M,
// N, K multiples of BM, BN, BK (the launch grid is M/BM x N/BN).
//
// Checked against a C matmul on the emulator by tests/validate/mfma_test.c
// (gemm_lds_tiled) through the wrappers kernels/gemm_tiled_*.cl.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#ifndef BM
#define BM 64
#endif
#ifndef BN
#define BN 64
#endif
#ifndef BK
#define BK 32
#endif
#ifndef WAVES_M
#define WAVES_M 2
#endif
#ifndef WAVES_N
#define WAVES_N 2
#endif

#define ROW (BK + 8)                   /* padded LDS row, in halves */
#define WM (BM / WAVES_M)              /* a wave's rows of C */
#define WN (BN / WAVES_N)              /* a wave's columns of C */
#define TM (WM / 16)                   /* its 16x16 blocks along M */
#define TN (WN / 16)                   /* and along N */
#define THREADS (64 * WAVES_M * WAVES_N)
#define CHUNKS_ROW (BK / 8)            /* 128-bit chunks per slice row */

#if WM % 16 || WN % 16 || BK % 16
#error "each wave's block and BK must be multiples of 16"
#endif
#if (BM * CHUNKS_ROW) % THREADS || (BN * CHUNKS_ROW) % THREADS
#error "the A and B slices must split evenly into 8-half chunks over the workgroup"
#endif

typedef half v4h __attribute__((ext_vector_type(4)));
typedef half v8h __attribute__((ext_vector_type(8)));
typedef float v4f __attribute__((ext_vector_type(4)));

static void sync_workgroup(void)
{
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

// Copy a rows x BK slice starting at row r0, column k of X (row length K)
// into s, in chunks of 8 halves, chunk c of the slice by work-item c % THREADS.
// The chunk count is a constant (rows is one at each call), so the loop
// unrolls fully and clang may issue all the loads before the stores.
static void stage(__local half *s, __global const half *restrict X, int r0, int k, int K, int t, int rows)
{
#pragma unroll
  for (int i = 0; i < rows * CHUNKS_ROW / THREADS; i++) {
    int c = i * THREADS + t, r = c / CHUNKS_ROW, col = (c % CHUNKS_ROW) * 8;
    *(__local v8h *)&s[r * ROW + col] = *(__global const v8h *)&X[(size_t)(r0 + r) * K + k + col];
  }
}

__attribute__((reqd_work_group_size(64 * WAVES_M, WAVES_N, 1)))
__kernel void gemm_lds_tiled(__global const half *restrict A, __global const half *restrict B,
                             __global float *restrict C, int M, int N, int K)
{
  __local half sa[BM * ROW], sb[BN * ROW];
  int tx = (int)__builtin_amdgcn_workitem_id_x(), ty = (int)__builtin_amdgcn_workitem_id_y();
  int t = ty * 64 * WAVES_M + tx;
  int lane = tx & 63;
  int row0 = (int)__builtin_amdgcn_workgroup_id_x() * BM;
  int col0 = (int)__builtin_amdgcn_workgroup_id_y() * BN;
  int qm = (tx >> 6) * WM, qn = ty * WN;    /* this wave's block */
  int li = lane & 15, lk = (lane >> 4) * 4; /* MFMA operand position */

  v4f acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int j = 0; j < TN; j++)
      acc[i][j] = 0;
  for (int k = 0; k < K; k += BK) {
    stage(sa, A, row0, k, K, t, BM);
    stage(sb, B, col0, k, K, t, BN);
    sync_workgroup();
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      v4h a[TM], b[TN];
#pragma unroll
      for (int i = 0; i < TM; i++)
        a[i] = *(__local v4h *)&sa[(qm + 16 * i + li) * ROW + kk + lk];
#pragma unroll
      for (int j = 0; j < TN; j++)
        b[j] = *(__local v4h *)&sb[(qn + 16 * j + li) * ROW + kk + lk];
#pragma unroll
      for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
          acc[i][j] = __builtin_amdgcn_mfma_f32_16x16x16f16(a[i], b[j], acc[i][j], 0, 0, 0);
    }
    sync_workgroup(); /* the slice is consumed before the next one overwrites it */
  }
  int r = row0 + qm + lk, c = col0 + qn + li;
#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int j = 0; j < TN; j++)
#pragma unroll
      for (int e = 0; e < 4; e++)
        C[(size_t)(r + 16 * i + e) * N + c + 16 * j] = acc[i][j][e];
}
