// Two kernels in one object, for the linker and the reader:
//   fill(out: i32*, value: i32):  out[i] = value,       i = wg.x*64 + tid.x
//   scale(x: f32*):               x[i] = 2 * x[i],      i = wg.x*64 + tid.x
// scale declares 1024 bytes of static LDS and enables the Y work-item id and
// the workgroup id Y, so the reader has non-default KD fields to decode.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.protected fill
	.globl fill
	.p2align 8
	.type fill,@function
fill:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	s_load_dword s6, s[0:1], 0x8
	v_and_b32 v0, 0x3ff, v0
	s_lshl_b32 s3, s2, 6
	v_add_u32 v0, s3, v0
	v_lshlrev_b32 v1, 2, v0
	s_waitcnt lgkmcnt(0)
	v_mov_b32 v2, s6
	global_store_dword v1, v2, s[4:5]
	s_endpgm
.Lfill_end:
	.size fill, .Lfill_end-fill

	.protected scale
	.globl scale
	.p2align 8
	.type scale,@function
scale:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	v_and_b32 v0, 0x3ff, v0
	s_lshl_b32 s6, s2, 6
	v_add_u32 v0, s6, v0
	v_lshlrev_b32 v1, 2, v0
	s_waitcnt lgkmcnt(0)
	global_load_dword v2, v1, s[4:5]
	s_waitcnt vmcnt(0)
	v_add_f32 v2, v2, v2
	global_store_dword v1, v2, s[4:5]
	s_endpgm
.Lscale_end:
	.size scale, .Lscale_end-scale

	.rodata
	.p2align 6
	.amdhsa_kernel fill
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 12
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 3
		.amdhsa_next_free_sgpr 7
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
	.p2align 6
	.amdhsa_kernel scale
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 8
		.amdhsa_group_segment_fixed_size 1024
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 1
		.amdhsa_system_vgpr_workitem_id 1
		.amdhsa_next_free_vgpr 40
		.amdhsa_next_free_sgpr 7
		.amdhsa_accum_offset 32
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx942
amdhsa.kernels:
  - .name: fill
    .symbol: fill.kd
    .kernarg_segment_size: 12
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 13
    .vgpr_count: 3
    .agpr_count: 0
    .max_flat_workgroup_size: 64
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: value, .offset: 8, .size: 4, .value_kind: by_value }
  - .name: scale
    .symbol: scale.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 1024
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 13
    .vgpr_count: 40
    .agpr_count: 8
    .max_flat_workgroup_size: 256
    .args:
      - { .name: x, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
...
	.end_amdgpu_metadata
