// agpr.s — hand-written gfx942 kernel for what clang-19 does not emit from OpenCL: v_accvgpr_write_b32 (VGPR and
// inline-constant sources), v_accvgpr_mov_b32, v_accvgpr_read_b32, global_load/global_store with AGPR data, and an
// MFMA whose C and D are AGPRs. One wave; lane l writes out[l][0..3] = {in[l] via a0->a1, in[l] via a2, 2.0,
// D[reg0] + D[reg3]} where D = ones(16x16) x ones(16x16) + in[l] (every element 16 + in[l]).
// AGPRs start at accum_offset 12 in the unified register file. Hazard padding (s_nop) as clang would insert.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.globl	agpr
	.p2align 8
	.type	agpr,@function
agpr:
	s_load_dwordx4 s[4:7], s[0:1], 0x0       // in, out
	v_and_b32 v0, 0x3ff, v0
	v_lshlrev_b32 v1, 2, v0                  // 4*lane
	v_lshlrev_b32 v10, 4, v0                 // 16*lane: out row
	s_waitcnt lgkmcnt(0)
	global_load_dword v2, v1, s[4:5]         // v2 = in[lane]
	global_load_dword a2, v1, s[4:5]         // a2 = in[lane], load straight into an AGPR
	s_waitcnt vmcnt(0)
	v_accvgpr_write_b32 a0, v2
	v_accvgpr_mov_b32 a1, a0
	v_accvgpr_write_b32 a3, 2.0              // inline constant
	v_accvgpr_read_b32 v3, a1                // v3 = in[lane] through a0 -> a1
	v_accvgpr_read_b32 v4, a3
	// MFMA with C and D in AGPRs: C = in[lane] in all four registers, A = B = 1.0 (f16x2 0x3c003c00)
	v_accvgpr_write_b32 a4, v2
	v_accvgpr_write_b32 a5, v2
	v_accvgpr_write_b32 a6, v2
	v_accvgpr_write_b32 a7, v2
	v_mov_b32 v6, 0x3c003c00
	v_mov_b32 v7, 0x3c003c00
	s_nop 1
	v_mfma_f32_16x16x16_f16 a[4:7], v[6:7], v[6:7], a[4:7]
	s_nop 7
	s_nop 3
	v_accvgpr_read_b32 v5, a4
	v_accvgpr_read_b32 v8, a7
	global_store_dword v10, v3, s[6:7]
	global_store_dword v10, a2, s[6:7] offset:4   // store straight from an AGPR
	global_store_dword v10, v4, s[6:7] offset:8
	v_add_f32 v5, v5, v8
	global_store_dword v10, v5, s[6:7] offset:12
	s_endpgm
.Lagpr_end:
	.size	agpr, .Lagpr_end-agpr
	.rodata
	.p2align 6
	.amdhsa_kernel agpr
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 16
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 24
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 12
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
	.end_amdhsa_kernel
	.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx942
amdhsa.kernels:
  - .name: agpr
    .symbol: agpr.kd
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 14
    .vgpr_count: 24
    .agpr_count: 12
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
...
	.end_amdgpu_metadata
