// lds_transpose.cl — out[W][H] = transpose(in[H][W]) through a 16x17 LDS tile
// (the pad column avoids bank conflicts) with barriers between the write and
// the read phase. 2-D workgroups of 16x16 work-items (4 waves) on a 2-D grid;
// H and W are not multiples of 16, so edge tiles are partial and guarded.
#include "common.h"
#define T 16

__attribute__((reqd_work_group_size(T, T, 1)))
__kernel void lds_transpose(__global const float *restrict in, __global float *restrict out, int H, int W) {
  __local float tile[T][T + 1];
  int tx = LID_X, ty = LID_Y;
  int x = WGID_X * T + tx, y = WGID_Y * T + ty;
  if (x < W && y < H)
    tile[ty][tx] = in[y * W + x];
  BARRIER();
  // transposed tile: work-item (tx, ty) writes out[WGID_X*T + ty][WGID_Y*T + tx]
  int ox = WGID_Y * T + tx, oy = WGID_X * T + ty;
  if (ox < H && oy < W)
    out[oy * H + ox] = tile[tx][ty];
}
