// implicit.cl — what clang-built kernels read besides their own arguments:
// the code object v5 hidden kernel arguments (block counts, group sizes and
// grid dims, read through the implicit-argument pointer, as the OpenCL/HIP
// libraries do for get_num_groups / get_local_size), the workgroup size
// builtin without reqd_work_group_size, and a __constant lookup table that
// lives in the code object's read-only data (addressed PC-relative with
// s_getpc_b64 and a relocation the linker resolved).
#include "common.h"

__constant int table[32] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3,
                            2, 3, 8, 4, 6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5};

__kernel void implicit(__global const int *restrict x, __global int *restrict out) {
  __constant uint *ia = (__constant uint *)__builtin_amdgcn_implicitarg_ptr();
  __constant ushort *ia16 = (__constant ushort *)ia;
  uint lx = __builtin_amdgcn_workitem_id_x(), ly = __builtin_amdgcn_workitem_id_y();
  uint wx = __builtin_amdgcn_workgroup_size_x(), wy = __builtin_amdgcn_workgroup_size_y();
  uint gx = __builtin_amdgcn_workgroup_id_x(), gy = __builtin_amdgcn_workgroup_id_y();
  uint nx = ia[0], ny = ia[1];                        // hidden_block_count_x/y
  uint col = gx * wx + lx, row = gy * wy + ly, width = nx * wx;
  uint i = row * width + col;
  __global int *o = out + i * 8;
  o[0] = (int)nx;
  o[1] = (int)ny;
  o[2] = (int)ia[2];                                  // hidden_block_count_z
  o[3] = (int)ia16[6] | (int)ia16[7] << 16;           // hidden_group_size_x/y
  o[4] = (int)ia16[8];                                // hidden_group_size_z
  o[5] = (int)ia16[32];                               // hidden_grid_dims
  o[6] = (int)(wx * 100 + wy);
  o[7] = table[(uint)x[i] % 32] + table[i % 32] * 10;
}
