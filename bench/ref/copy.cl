// copy.cl — the clang-19 side of `make bench-profile` (bench/profile_report.c)
// for examples/copy.json and copy_aligned.json: b[M][N] = a[M][N] (f16) with
// their tiling, one 64-lane workgroup per 256 halves of a row, each
// work-item moving 4 consecutive halves (8 bytes) in one load and one store.
// Requires N a multiple of 256; the launch grid is N/256 x M.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

typedef half v4h __attribute__((ext_vector_type(4)));

__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void copy(__global const half *restrict a, __global half *restrict b, int N)
{
  int lane = (int)__builtin_amdgcn_workitem_id_x();
  size_t at = (size_t)__builtin_amdgcn_workgroup_id_y() * N + __builtin_amdgcn_workgroup_id_x() * 256 + lane * 4;
  *(__global v4h *)&b[at] = *(__global const v4h *)&a[at];
}
