// mfma_forms.s — hand-written gfx942 kernel for the MFMA operand forms our compiler will use and clang did not:
// C as the inline constant 0 with D in VGPRs, then C = D in VGPRs (acc_cd = 0), C = 0 with D in AGPRs, and A/B
// read from AGPRs (acc bits of src0/src1). A = ones (16x16), B[k][j] = j, so every D[i][j] = 16 j after the first
// MFMA and 32 j after the second; the third and fourth give 16 j again. out[lane][0..15] = {D1, D2, D3, D4, regs
// 0..3 each}; with the 16x16 output layout, lane l holds column l % 16 in every register.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.globl	mfma_forms
	.p2align 8
	.type	mfma_forms,@function
mfma_forms:
	s_load_dwordx2 s[4:5], s[0:1], 0x0       // out
	v_and_b32 v0, 0x3ff, v0
	v_and_b32 v1, 15, v0                     // j = lane % 16
	v_cvt_f32_u32 v1, v1
	v_cvt_f16_f32 v1, v1
	v_pack_b32_f16 v6, v1, v1                // B: two k values of column j
	v_mov_b32 v7, v6
	v_mov_b32 v4, 0x3c003c00                 // A: ones
	v_mov_b32 v5, 0x3c003c00
	s_nop 1
	v_mfma_f32_16x16x16_f16 v[8:11], v[4:5], v[6:7], 0
	s_nop 7
	s_nop 3
	v_mfma_f32_16x16x16_f16 v[12:15], v[4:5], v[6:7], v[8:11]
	v_mfma_f32_16x16x16_f16 a[0:3], v[4:5], v[6:7], 0
	v_accvgpr_write_b32 a4, v4               // A and B copied into AGPRs
	v_accvgpr_write_b32 a5, v5
	v_accvgpr_write_b32 a6, v6
	v_accvgpr_write_b32 a7, v7
	s_nop 7
	s_nop 3
	v_mfma_f32_16x16x16_f16 v[24:27], a[4:5], a[6:7], 0
	v_accvgpr_read_b32 v16, a0
	v_accvgpr_read_b32 v17, a1
	v_accvgpr_read_b32 v18, a2
	v_accvgpr_read_b32 v19, a3
	v_mul_u32_u24 v20, v0, 64                // 16 dwords per lane
	s_nop 7
	s_nop 3
	s_waitcnt lgkmcnt(0)
	global_store_dwordx4 v20, v[8:11], s[4:5]
	global_store_dwordx4 v20, v[12:15], s[4:5] offset:16
	global_store_dwordx4 v20, v[16:19], s[4:5] offset:32
	global_store_dwordx4 v20, v[24:27], s[4:5] offset:48
	s_endpgm
.Lmfma_forms_end:
	.size	mfma_forms, .Lmfma_forms_end-mfma_forms
	.rodata
	.p2align 6
	.amdhsa_kernel mfma_forms
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 8
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 40
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 28
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
	.end_amdhsa_kernel
	.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx942
amdhsa.kernels:
  - .name: mfma_forms
    .symbol: mfma_forms.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 14
    .vgpr_count: 40
    .agpr_count: 8
    .max_flat_workgroup_size: 64
    .args:
      - .address_space: global
        .offset: 0
        .size: 8
        .value_kind: global_buffer
...
	.end_amdgpu_metadata
