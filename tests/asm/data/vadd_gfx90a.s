// The gfx942 skeleton retargeted to gfx90a (same code, same KD fields): HSA kernel: c[i] = a[i] + b[i] for i = workgroup_id.x*64 + tid.x  (one wave64 per WG)
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.amdhsa_code_object_version 5
	.text
	.protected	vadd
	.globl	vadd
	.p2align	8                        // kernel entry must be 256-byte aligned
	.type	vadd,@function
vadd:
	// s[0:1] = kernarg ptr (only user SGPR enabled), s2 = workgroup_id.x, v0 = packed workitem id
	s_load_dwordx4 s[4:7], s[0:1], 0x0      // a, b
	s_load_dwordx2 s[8:9], s[0:1], 0x10     // c
	v_and_b32 v0, 0x3ff, v0                 // workitem id x = v0[9:0]
	s_lshl_b32 s3, s2, 6                    // wg_id.x * 64
	v_add_u32 v0, s3, v0
	v_lshlrev_b32 v1, 2, v0                 // byte offset
	s_waitcnt lgkmcnt(0)
	global_load_dword v2, v1, s[4:5]
	global_load_dword v3, v1, s[6:7]
	s_waitcnt vmcnt(0)
	v_add_f32 v2, v2, v3
	global_store_dword v1, v2, s[8:9]
	s_endpgm
.Lvadd_end:
	.size	vadd, .Lvadd_end-vadd

	.rodata
	.p2align	6                        // kernel descriptor must be 64-byte aligned
	.amdhsa_kernel vadd
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 24
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 10
		.amdhsa_accum_offset 4
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx90a
amdhsa.kernels:
  - .name: vadd
    .symbol: vadd.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 4
    .agpr_count: 0
    .max_flat_workgroup_size: 64
    .args:
      - { .name: a, .offset: 0,  .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: b, .offset: 8,  .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: c, .offset: 16, .size: 8, .value_kind: global_buffer, .address_space: global }
...
	.end_amdgpu_metadata
