// fp8_mods.s — hand-written gfx942 kernel for fp8/bf8 encoder forms clang-19 does not emit: the VOP3 clamp and omod
// bits on v_cvt_pk_fp8_f32 / v_cvt_pk_bf8_f32 (the CDNA3 ISA guide, table 31, says both are ignored; llvm-mc-19
// rejects them, so they are written as .long), and the neg/abs source modifiers (supported). One wave; lane l
// converts x = a[l], y = b[l] into four dwords preset to 0xdeadbeef:
//   out[l][0]: v_cvt_pk_fp8_f32 x, y with clamp and omod:mul:2      -> low word, high word kept
//   out[l][1]: v_cvt_pk_bf8_f32 x, y op_sel:[0,0,1] with clamp and omod:div:2 -> high word, low word kept
//   out[l][2]: v_cvt_pk_fp8_f32 -x, |y| op_sel:[0,0,1]
//   out[l][3]: v_cvt_pk_bf8_f32 -|x|, y
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.globl	fp8_mods
	.p2align 8
	.type	fp8_mods,@function
fp8_mods:
	s_load_dwordx4 s[4:7], s[0:1], 0x0       // a, b
	s_load_dwordx2 s[8:9], s[0:1], 0x10      // out
	v_and_b32 v0, 0x3ff, v0
	v_lshlrev_b32 v1, 2, v0                  // 4*lane
	v_lshlrev_b32 v10, 4, v0                 // 16*lane: out row
	v_mov_b32 v4, 0xdeadbeef
	v_mov_b32 v5, 0xdeadbeef
	v_mov_b32 v6, 0xdeadbeef
	v_mov_b32 v7, 0xdeadbeef
	s_waitcnt lgkmcnt(0)
	global_load_dword v2, v1, s[4:5]         // x
	global_load_dword v3, v1, s[6:7]         // y
	s_waitcnt vmcnt(0)
	.long 0xd2a28004, 0x08020702             // v_cvt_pk_fp8_f32 v4, v2, v3 clamp mul:2
	.long 0xd2a3c005, 0x18020702             // v_cvt_pk_bf8_f32 v5, v2, v3 op_sel:[0,0,1] clamp div:2
	v_cvt_pk_fp8_f32 v6, -v2, |v3| op_sel:[0,0,1]
	v_cvt_pk_bf8_f32 v7, -|v2|, v3
	global_store_dwordx4 v10, v[4:7], s[8:9]
	s_endpgm
.Lfp8_mods_end:
	.size	fp8_mods, .Lfp8_mods_end-fp8_mods
	.rodata
	.p2align 6
	.amdhsa_kernel fp8_mods
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 24
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 12
		.amdhsa_next_free_sgpr 10
		.amdhsa_accum_offset 12
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
	.end_amdhsa_kernel
	.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx942
amdhsa.kernels:
  - .name: fp8_mods
    .symbol: fp8_mods.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 12
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
