// A spin-wait between workgroups (a co-resident kernel, docs/launch-format.md):
// workgroup 0 loads flag[1] until workgroup 1, after a loop of 50 trips,
// stores 41 there, then stores flag[1] + 1 to flag[0]; other workgroups end.
// Run one workgroup after another in forward order, workgroup 0 never ends.
// No .amdgcn_target: assembled for gfx942 and gfx90a (wavecc as --mcpu).
	.text
	.protected	spin_flag
	.globl	spin_flag
	.p2align	8
	.type	spin_flag,@function
spin_flag:
	s_load_dwordx2 s[4:5], s[0:1], 0x0      // flag
	s_waitcnt lgkmcnt(0)
	s_mov_b64 exec, 1
	v_mov_b32 v1, 0
	s_cmp_eq_u32 s2, 1
	s_cbranch_scc1 .Lproducer
	s_cmp_lg_u32 s2, 0
	s_cbranch_scc1 .Ldone
.Lspin:
	global_load_dword v2, v1, s[4:5] offset:4
	s_waitcnt vmcnt(0)
	v_readfirstlane_b32 s6, v2
	s_cmp_eq_u32 s6, 0
	s_cbranch_scc1 .Lspin
	s_add_u32 s6, s6, 1
	v_mov_b32 v3, s6
	global_store_dword v1, v3, s[4:5]
	s_endpgm
.Lproducer:
	s_mov_b32 s7, 50
.Lwork:
	s_sub_u32 s7, s7, 1
	s_cmp_lg_u32 s7, 0
	s_cbranch_scc1 .Lwork
	v_mov_b32 v3, 41
	global_store_dword v1, v3, s[4:5] offset:4
.Ldone:
	s_endpgm
.Lspin_flag_end:
	.size	spin_flag, .Lspin_flag_end-spin_flag

	.rodata
	.p2align	6
	.amdhsa_kernel spin_flag
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 8
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 10
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: spin_flag
    .symbol: spin_flag.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 4
    .agpr_count: 0
    .max_flat_workgroup_size: 64
    .args:
      - { .name: flag, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
...
	.end_amdgpu_metadata
