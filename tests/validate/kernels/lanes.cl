// lanes.cl — more cross-lane and scalar-control instructions: ds_permute_b32
// (forward: each lane sends its value to the lane it names), v_readlane with
// a lane index held in an SGPR, ds_bpermute inside a divergent branch (active
// lanes read from active lanes), s_memtime (only checked to run and
// not go backwards), s_sleep and s_setprio.
#include "common.h"
#define WG 64

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void lanes(__global const int *restrict x, __global int *restrict out, __global ulong *restrict times,
                    int k) {
  int l = LID_X, g = WGID_X * WG + l;
  int v = x[g];
  ulong t0 = __builtin_amdgcn_s_memtime();
  // forward permute with the bijection l -> (l * 5 + 3) % 64: lane dst receives from src where dst = 5 src + 3
  int fw = __builtin_amdgcn_ds_permute(((l * 5 + 3) % 64) * 4, v);
  int rl = __builtin_amdgcn_readlane(v, k);                  // k from a kernel argument: SGPR lane select
  int rl2 = __builtin_amdgcn_readlane(v, (k * 7 + 1) & 63);
  // bpermute in a divergent region: active lanes read from other active lanes only
  int bp = -1;
  if (l % 2 == 0)
    bp = __builtin_amdgcn_ds_bpermute(((l + 2) % 64) * 4, v);
  __builtin_amdgcn_s_setprio(2);
  __builtin_amdgcn_s_sleep(1);
  __builtin_amdgcn_s_setprio(0);
  ulong t1 = __builtin_amdgcn_s_memtime();
  __global int *o = out + g * 4;
  o[0] = fw;
  o[1] = rl;
  o[2] = rl2;
  o[3] = bp;
  if (l == 0)
    times[WGID_X] = t1 - t0;
}
