// softmax.cl — row softmax, the reduction pattern of attention kernels: one
// workgroup of 4 waves per row of L floats (L not a multiple of the
// workgroup), each work-item owns 2 elements; max and sum are reduced inside
// each wave with DPP row shifts, row_bcast and v_readlane, then across waves
// through LDS with barriers. exp via v_exp_f32 on (x - max) * log2(e), the
// normalisation by one v_rcp_f32. Output in f32 and rounded to f16.
#include "common.h"
#define WG 256
#define ROW_SHR(n) (0x110 + (n))
#define ROW_BCAST15 0x142
#define ROW_BCAST31 0x143

// Wave reduction through DPP: after the shifts lane 63 holds the wave's result.
static float wave_max(float v) {
  v = fmax(v, __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(__builtin_bit_cast(int, -INFINITY),
                                                                    __builtin_bit_cast(int, v), ROW_SHR(1), 0xf, 0xf, false)));
  v = fmax(v, __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(__builtin_bit_cast(int, -INFINITY),
                                                                    __builtin_bit_cast(int, v), ROW_SHR(2), 0xf, 0xf, false)));
  v = fmax(v, __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(__builtin_bit_cast(int, -INFINITY),
                                                                    __builtin_bit_cast(int, v), ROW_SHR(4), 0xf, 0xf, false)));
  v = fmax(v, __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(__builtin_bit_cast(int, -INFINITY),
                                                                    __builtin_bit_cast(int, v), ROW_SHR(8), 0xf, 0xf, false)));
  v = fmax(v, __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(__builtin_bit_cast(int, -INFINITY),
                                                                    __builtin_bit_cast(int, v), ROW_BCAST15, 0xa, 0xf, false)));
  v = fmax(v, __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(__builtin_bit_cast(int, -INFINITY),
                                                                    __builtin_bit_cast(int, v), ROW_BCAST31, 0xc, 0xf, false)));
  return __builtin_bit_cast(float, __builtin_amdgcn_readlane(__builtin_bit_cast(int, v), 63));
}

static float wave_sum(float v) {
  v += __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(0, __builtin_bit_cast(int, v), ROW_SHR(1), 0xf, 0xf, false));
  v += __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(0, __builtin_bit_cast(int, v), ROW_SHR(2), 0xf, 0xf, false));
  v += __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(0, __builtin_bit_cast(int, v), ROW_SHR(4), 0xf, 0xf, false));
  v += __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(0, __builtin_bit_cast(int, v), ROW_SHR(8), 0xf, 0xf, false));
  v += __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(0, __builtin_bit_cast(int, v), ROW_BCAST15, 0xa, 0xf, false));
  v += __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(0, __builtin_bit_cast(int, v), ROW_BCAST31, 0xc, 0xf, false));
  return __builtin_bit_cast(float, __builtin_amdgcn_readlane(__builtin_bit_cast(int, v), 63));
}

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void softmax(__global const float *restrict x, __global float *restrict y, __global half *restrict yh,
                      int L) {
  __local float part[4];
  int t = LID_X, wave = t / 64, row = WGID_X;
  __global const float *xr = x + row * L;
  float a = t < L ? xr[t] : -INFINITY, b = t + WG < L ? xr[t + WG] : -INFINITY;
  float m = wave_max(fmax(a, b));
  if (t % 64 == 0)
    part[wave] = m;
  BARRIER();
  m = fmax(fmax(part[0], part[1]), fmax(part[2], part[3]));
  BARRIER();
  const float log2e = 1.4426950408889634f;
  float ea = __builtin_amdgcn_exp2f((a - m) * log2e), eb = __builtin_amdgcn_exp2f((b - m) * log2e);
  float s = wave_sum(ea + eb);
  if (t % 64 == 0)
    part[wave] = s;
  BARRIER();
  s = (part[0] + part[1]) + (part[2] + part[3]);
  float inv = __builtin_amdgcn_rcpf(s);
  if (t < L) {
    y[row * L + t] = ea * inv;
    yh[row * L + t] = (half)(ea * inv);
  }
  if (t + WG < L) {
    y[row * L + t + WG] = eb * inv;
    yh[row * L + t + WG] = (half)(eb * inv);
  }
}
