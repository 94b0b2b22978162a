// buffer_sentinel.cl — the masking recipe a compiler uses with buffer
// instructions: lanes that must not touch memory get a voffset far past
// num_records (0x80000000, 0xfffff000, 0x7ffffff0 + lane) so the range check,
// not EXEC, drops them; soffset and the instruction offset are added on top.
// Offsets stay below 2^32 after every addition: what the hardware does when
// the 32-bit sum wraps is not pinned down (by the CDNA3 ISA guide), so it is not
// tested. Stores use the same sentinels.
#include "common.h"
#define WG 64

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void buffer_sentinel(__global const uint *restrict src, __global uint *restrict out,
                              __global uint *restrict dst, int n) {
  int l = LID_X;
  __amdgpu_buffer_rsrc_t r = __builtin_amdgcn_make_buffer_rsrc((__global void *)src, 0, n * 4, 0x00020000);
  __amdgpu_buffer_rsrc_t w = __builtin_amdgcn_make_buffer_rsrc((__global void *)dst, 0, n * 4, 0x00020000);
  uint sel = l % 4;
  uint off = sel == 0 ? (uint)l * 4 : sel == 1 ? 0x80000000u : sel == 2 ? 0xfffff000u : 0x7ffffff0u + (uint)l;
  __global uint *o = out + l * 4;
  o[0] = __builtin_amdgcn_raw_buffer_load_b32(r, off, 0, 0);
  o[1] = __builtin_amdgcn_raw_buffer_load_b32(r, off + 8, 0, 0);      // folded into the instruction offset
  o[2] = __builtin_amdgcn_raw_buffer_load_b32(r, off, 16, 0);         // soffset 16
  typedef uint uint2v __attribute__((ext_vector_type(2)));
  uint2v p = __builtin_amdgcn_raw_buffer_load_b64(r, off, 0, 0);
  o[3] = p.x ^ p.y;
  __builtin_amdgcn_raw_buffer_store_b32((uint)l + 100u, w, off, 0, 0);
}
