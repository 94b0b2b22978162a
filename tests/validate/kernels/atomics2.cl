// atomics2.cl — the atomics a split-K GEMM or a histogram would use: float
// add to global memory (global_atomic_add_f32) and to LDS (ds_add_f32 /
// ds_add_rtn_f32), packed-half add (global_atomic_pk_add_f16), 64-bit integer
// add and compare-and-swap (global_atomic_add_x2, global_atomic_cmpswap_x2),
// and an LDS histogram with ds_add_u32 from every work-item of 4 workgroups.
// Float adds use exactly representable values, so the sum is the same in any
// order.
#include "common.h"
#define WG 256
typedef half half2v __attribute__((ext_vector_type(2)));

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void atomics2(__global const int *restrict x, __global float *restrict fsum, __global half2v *restrict hsum,
                       __global long *restrict lsum, __global int *restrict hist, __global float *restrict lds_out) {
  __local float lf[4];
  __local int lh[16];
  int t = LID_X, g = WGID_X * WG + t;
  if (t < 16)
    lh[t] = 0;
  if (t < 4)
    lf[t] = 0.0f;
  BARRIER();
  int v = x[g];
  __builtin_amdgcn_global_atomic_fadd_f32(&fsum[v & 3], (float)(v & 255) * 0.25f);
  __builtin_amdgcn_global_atomic_fadd_v2f16(&hsum[v & 1], (half2v)((half)(v & 3), (half)1.0f)); // sums stay below 2048
  __atomic_fetch_add(&lsum[0], (long)v * 0x10001L, __ATOMIC_RELAXED);
  long expected = 0;
  __atomic_compare_exchange_n(&lsum[1], &expected, (long)g + 0x100000000L, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  __atomic_fetch_add(&lh[(v >> 8) & 15], 1, __ATOMIC_RELAXED);
  __builtin_amdgcn_ds_faddf(&lf[v & 3], (float)(v & 15), 0, 0, false);
  BARRIER();
  if (t < 16)
    __atomic_fetch_add(&hist[t], lh[t], __ATOMIC_RELAXED);
  if (t < 4)
    lds_out[WGID_X * 4 + t] = lf[t];
}
