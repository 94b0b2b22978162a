// buffer_oob.cl — MUBUF loads and stores through buffer resources made with
// __builtin_amdgcn_make_buffer_rsrc. num_records is n*4 bytes (n elements of
// src). Each lane loads at a byte offset that may lie past num_records: out of
// range dwords read 0 (checked per dword for b64/b128; soffset counts toward the
// check). Stores go through a second resource whose num_records is `m` bytes:
// stores at or past it are dropped, so the tail of dst keeps what the test
// put there. A third resource takes byte and short stores under the same limit.
#include "common.h"
#define WG 64
typedef unsigned uint2v __attribute__((ext_vector_type(2)));
typedef unsigned uint4v __attribute__((ext_vector_type(4)));

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void buffer_oob(__global const unsigned *restrict src, __global unsigned *restrict out,
                         __global unsigned *restrict dst, int n, int m, int soff,
                         __global unsigned char *restrict bytes) {
  int gid = WGID_X * WG + LID_X;
  __amdgpu_buffer_rsrc_t r = __builtin_amdgcn_make_buffer_rsrc((__global void *)src, 0, n * 4, 0x00020000);
  __global unsigned *o = out + gid * 10;
  int off = gid * 4;
  o[0] = __builtin_amdgcn_raw_buffer_load_b32(r, off, 0, 0);
  o[1] = __builtin_amdgcn_raw_buffer_load_b32(r, off, soff, 0);       // soffset in the range check
  o[2] = __builtin_amdgcn_raw_buffer_load_b16(r, off + 2, 0, 0);      // upper half of element gid
  uint2v p = __builtin_amdgcn_raw_buffer_load_b64(r, off, 0, 0);      // dwords gid, gid+1
  o[3] = p.x;
  o[4] = p.y;
  uint4v q = __builtin_amdgcn_raw_buffer_load_b128(r, off, 0, 0);     // dwords gid..gid+3
  o[5] = q.x;
  o[6] = q.y;
  o[7] = q.z;
  o[8] = q.w;
  o[9] = __builtin_amdgcn_raw_buffer_load_b8(r, off + 1, 0, 0);
  __amdgpu_buffer_rsrc_t w = __builtin_amdgcn_make_buffer_rsrc((__global void *)dst, 0, m, 0x00020000);
  __builtin_amdgcn_raw_buffer_store_b32((unsigned)gid * 3u + 1u, w, off, 0, 0);
  // byte and short stores (wavecc's 8- and 16-bit element stores), the same m-byte range
  __amdgpu_buffer_rsrc_t b = __builtin_amdgcn_make_buffer_rsrc((__global void *)bytes, 0, m, 0x00020000);
  __builtin_amdgcn_raw_buffer_store_b8((unsigned char)(gid * 7 + 3), b, gid, 0, 0);
  __builtin_amdgcn_raw_buffer_store_b16((unsigned short)(gid * 5 + 1), b, 128 + 2 * gid, 0, 0);
}
