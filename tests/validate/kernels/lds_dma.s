// lds_dma.s — hand-written gfx942 kernel for LDS DMA (buffer_load_dword ... lds), which clang-19 cannot emit from
// OpenCL. LDS address = M0 + inst_offset + 4*lane; memory address = base + voffset + inst_offset, range-checked
// against num_records = 4*n (out-of-range lanes write 0 to LDS). Three DMAs: M0=0 with voffset 4*(63-lane), the same
// with offset:256, and M0=0x200 with voffset 4*lane; then ds_read_b32 of each and out[lane][0..2] = the three values.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.globl	lds_dma
	.p2align 8
	.type	lds_dma,@function
lds_dma:
	s_load_dwordx4 s[4:7], s[0:1], 0x0       // src, out
	s_load_dword s3, s[0:1], 0x10            // n
	v_and_b32 v0, 0x3ff, v0
	v_lshlrev_b32 v1, 2, v0                  // 4*lane
	v_sub_u32 v2, 63, v0
	v_lshlrev_b32 v2, 2, v2                  // voffset = 4*(63-lane)
	s_waitcnt lgkmcnt(0)
	s_mov_b32 s8, s4
	s_and_b32 s9, s5, 0xffff
	s_lshl_b32 s10, s3, 2                    // num_records = 4*n
	s_mov_b32 s11, 0x20000
	s_mov_b32 m0, 0
	s_nop 0
	buffer_load_dword v2, s[8:11], 0 offen lds              // LDS[lane] = src[63-lane]
	buffer_load_dword v2, s[8:11], 0 offen offset:256 lds   // LDS[64+lane] = src[127-lane]
	s_mov_b32 m0, 0x200
	s_nop 0
	buffer_load_dword v1, s[8:11], 0 offen lds              // LDS[128+lane] = src[lane]
	s_waitcnt vmcnt(0)
	ds_read_b32 v3, v1
	ds_read_b32 v4, v1 offset:256
	ds_read_b32 v5, v1 offset:512
	v_mov_b32 v6, 0
	v_mul_u32_u24 v7, v0, 12
	s_waitcnt lgkmcnt(0)
	global_store_dword v7, v3, s[6:7]
	global_store_dword v7, v4, s[6:7] offset:4
	global_store_dword v7, v5, s[6:7] offset:8
	s_endpgm
.Llds_dma_end:
	.size	lds_dma, .Llds_dma_end-lds_dma
	.rodata
	.p2align 6
	.amdhsa_kernel lds_dma
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 20
		.amdhsa_group_segment_fixed_size 768
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 12
		.amdhsa_accum_offset 8
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
	.end_amdhsa_kernel
	.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx942
amdhsa.kernels:
  - .name: lds_dma
    .symbol: lds_dma.kd
    .kernarg_segment_size: 20
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 768
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 14
    .vgpr_count: 8
    .agpr_count: 0
    .max_flat_workgroup_size: 64
    .args:
      - .address_space: global
        .offset: 0
        .size: 8
        .value_kind: global_buffer
      - .address_space: global
        .offset: 8
        .size: 8
        .value_kind: global_buffer
      - .offset: 16
        .size: 4
        .value_kind: by_value
...
	.end_amdgpu_metadata
