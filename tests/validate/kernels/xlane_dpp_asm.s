// xlane_dpp_asm.s — hand-written gfx942 DPP forms an instruction selector emits but clang's DPP combiner
// does not produce from OpenCL: VOP2 DPP with partial row/bank masks and bound_ctrl off where the
// destination's previous value (7.0, or 7 for the integer add) is not src1, DPP source modifiers
// (neg/abs), the operand order of v_sub/v_subrev, v_fmac (the destination is also the addend), and an
// integer add broadcasting lane 31. One wave; lane l reads x[l], y[l] and writes out[l][0..7]:
//   0 v_add_f32_dpp   v4 = x[src] + y          row_bcast:15 row_mask:0xa             (else 7.0)
//   1 v_max_f32_dpp   v5 = max(x[src], y)      row_shr:3 bank_mask:0x5                (else 7.0)
//   2 v_add_f32_dpp   v6 = -x[src] + |y|       row_ror:5
//   3 v_sub_f32_dpp   v7 = x[src] - y          quad_perm:[2,3,0,1] bound_ctrl
//   4 v_subrev_f32_dpp v8 = y - x[src]         row_mirror
//   5 v_fmac_f32_dpp  v9 = x[src] * y + y      row_shl:1 bound_ctrl (missing source: 0 * y + y)
//   6 v_mul_f32_dpp   v10 = |x[src]| * y        wave_shr:1 bound_ctrl
//   7 v_add_u32_dpp   v11 = x[31] + y (bits)   row_bcast:31 row_mask:0xc bound_ctrl  (else 7)
// s_nop 1 before each DPP covers the VALU-write -> DPP-read hazard (2 wait states).
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.globl	xlane_dpp_asm
	.p2align 8
	.type	xlane_dpp_asm,@function
xlane_dpp_asm:
	s_load_dwordx4 s[4:7], s[0:1], 0x0       // x, y
	s_load_dwordx2 s[8:9], s[0:1], 0x10      // out
	v_and_b32 v0, 0x3ff, v0
	v_lshlrev_b32 v14, 2, v0                 // 4*lane
	v_lshlrev_b32 v15, 5, v0                 // 32*lane: out row
	s_waitcnt lgkmcnt(0)
	global_load_dword v1, v14, s[4:5]
	global_load_dword v2, v14, s[6:7]
	v_mov_b32 v4, 0x40e00000                 // 7.0: what masked-off lanes keep
	v_mov_b32 v5, 0x40e00000
	v_mov_b32 v6, 0x40e00000
	v_mov_b32 v7, 0x40e00000
	v_mov_b32 v8, 0x40e00000
	v_mov_b32 v10, 0x40e00000
	v_mov_b32 v11, 7
	s_waitcnt vmcnt(0)
	v_mov_b32 v9, v2
	s_nop 1
	v_add_f32_dpp v4, v1, v2 row_bcast:15 row_mask:0xa bank_mask:0xf
	v_max_f32_dpp v5, v1, v2 row_shr:3 row_mask:0xf bank_mask:0x5
	v_add_f32_dpp v6, -v1, |v2| row_ror:5 row_mask:0xf bank_mask:0xf
	v_sub_f32_dpp v7, v1, v2 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_subrev_f32_dpp v8, v1, v2 row_mirror row_mask:0xf bank_mask:0xf
	v_fmac_f32_dpp v9, v1, v2 row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mul_f32_dpp v10, |v1|, v2 wave_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_add_u32_dpp v11, v1, v2 row_bcast:31 row_mask:0xc bank_mask:0xf bound_ctrl:1
	global_store_dwordx4 v15, v[4:7], s[8:9]
	global_store_dwordx4 v15, v[8:11], s[8:9] offset:16
	s_endpgm
.Lxlane_dpp_asm_end:
	.size	xlane_dpp_asm, .Lxlane_dpp_asm_end-xlane_dpp_asm
	.rodata
	.p2align 6
	.amdhsa_kernel xlane_dpp_asm
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 24
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 16
		.amdhsa_next_free_sgpr 10
		.amdhsa_accum_offset 16
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
	.end_amdhsa_kernel
	.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx942
amdhsa.kernels:
  - .name: xlane_dpp_asm
    .symbol: xlane_dpp_asm.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 16
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
      - .address_space: global
        .offset: 16
        .size: 8
        .value_kind: global_buffer
...
	.end_amdgpu_metadata
