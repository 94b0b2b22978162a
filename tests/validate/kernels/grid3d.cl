// grid3d.cl — multi-workgroup 3-D dispatch: 8x4x2 workgroups on a grid of
// partial workgroups in every dimension. Each work-item writes its global
// coordinates and a value from the input, so a wrong workgroup id, a wrong
// unpacking of the packed work-item ids in v0, or a missed guard shows up.
#include "common.h"
#define WX 8
#define WY 4
#define WZ 2

__attribute__((reqd_work_group_size(WX, WY, WZ)))
__kernel void grid3d(__global const float *restrict in, __global int *restrict ids,
                     __global float *restrict out, int D, int H, int W) {
  int x = WGID_X * WX + LID_X, y = WGID_Y * WY + LID_Y, z = WGID_Z * WZ + LID_Z;
  if (x >= W || y >= H || z >= D)
    return;
  int i = (z * H + y) * W + x;
  ids[i] = x | y << 10 | z << 20;
  out[i] = in[i] * 2.0f + (float)(LID_X + WX * (LID_Y + WY * LID_Z));
}
