/* exec_test.c — emulator execution: hand-written gfx942 snippets assembled
 * with llvm-mc-19, run on the emulator, results checked against values
 * computed here independently. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../../util/dtype.h"
#include "emu_harness.h"

static float fbits(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* out[tid] = a[tid] + b[tid] over 4 workgroups of 64 (global loads, SMEM). */
START_TEST(vadd_multi_workgroup)
{
	Harness h;
	h_init(&h, "s_load_dwordx4 s[4:7], s[0:1], 0x0\n"
		   "s_load_dwordx2 s[8:9], s[0:1], 0x10\n"
		   "v_and_b32 v0, 0x3ff, v0\n"
		   "s_lshl_b32 s3, s2, 6\n"
		   "v_add_u32 v0, s3, v0\n"
		   "v_lshlrev_b32 v1, 2, v0\n"
		   "s_waitcnt lgkmcnt(0)\n"
		   "global_load_dword v2, v1, s[4:5]\n"
		   "global_load_dword v3, v1, s[6:7]\n"
		   "s_waitcnt vmcnt(0)\n"
		   "v_add_f32 v2, v2, v3\n"
		   "global_store_dword v1, v2, s[8:9]");
	float a[256], b[256], c[256];
	for (int i = 0; i < 256; i++)
		a[i] = (float)i * 0.5f, b[i] = 1000.0f - (float)i, c[i] = -1;
	h_buffer(&h, a, sizeof a, 0, false);
	h_buffer(&h, b, sizeof b, 8, false);
	h_buffer(&h, c, sizeof c, 16, true);
	h.l.grid[0] = 4;
	ck_assert_int_eq(h_run(&h), 0);
	for (int i = 0; i < 256; i++)
		ck_assert_float_eq(c[i], a[i] + b[i]);
	ck_assert_uint_eq(h.stats.waves, 4);
	ck_assert_uint_eq(h.stats.instructions, 4 * 13);
	h_free(&h);
}
END_TEST

/* A scalar loop: sum 1..n with s_add / s_cmp / s_cbranch, stored by lane 0. */
START_TEST(scalar_loop_and_branches)
{
	Harness h;
	h_init(&h, "s_load_dword s10, s[0:1], 0x8\n"
		   "s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
		   "s_mov_b32 s6, 0\n"
		   "s_mov_b32 s7, 1\n"
		   "s_waitcnt lgkmcnt(0)\n"
		   "loop:\n"
		   "s_add_u32 s6, s6, s7\n"
		   "s_add_u32 s7, s7, 1\n"
		   "s_cmp_le_u32 s7, s10\n"
		   "s_cbranch_scc1 loop\n"
		   "s_mul_i32 s8, s6, -3\n"
		   "s_bfe_u32 s9, s8, 0x80004\n" /* 8 bits from bit 4 */
		   "v_mov_b32 v1, 0\n"
		   "v_mov_b32 v2, s6\n"
		   "v_mov_b32 v3, s9\n"
		   "global_store_dwordx2 v1, v[2:3], s[4:5]");
	uint32_t out[2] = {0, 0};
	h_buffer(&h, out, sizeof out, 0, true);
	h_arg32(&h, 8, 100);
	ck_assert_int_eq(h_run(&h), 0);
	ck_assert_uint_eq(out[0], 5050);
	ck_assert_uint_eq(out[1], ((uint32_t)(5050 * -3) >> 4) & 0xff);
	h_free(&h);
}
END_TEST

/* EXEC masking with v_cmp + s_and_saveexec: odd lanes write lane*2, even
 * lanes keep the old value; v_cndmask picks by VCC; carry chain. */
START_TEST(exec_masking_and_carry)
{
	Harness h;
	h_init(&h, "s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
		   "v_and_b32 v0, 0x3ff, v0\n"
		   "v_lshlrev_b32 v1, 2, v0\n"
		   "v_and_b32 v2, 1, v0\n"
		   "v_mov_b32 v3, 7\n"
		   "v_cmp_eq_u32 vcc, 1, v2\n"
		   "v_cndmask_b32 v4, 5, v0, vcc\n" /* odd: tid, even: 5 */
		   "s_and_saveexec_b64 s[6:7], vcc\n"
		   "v_lshlrev_b32 v3, 1, v0\n"
		   "s_mov_b64 exec, s[6:7]\n"
		   "v_mov_b32 v5, -1\n"
		   "v_add_co_u32 v6, vcc, v5, v0\n"      /* carry out for tid >= 1 */
		   "v_addc_co_u32 v7, vcc, 0, 0, vcc\n"  /* = carry */
		   "v_add_u32 v3, v3, v4\n"
		   "v_lshl_add_u32 v3, v7, 16, v3\n"
		   "s_waitcnt lgkmcnt(0)\n"
		   "global_store_dword v1, v3, s[4:5]");
	uint32_t out[64];
	h_buffer(&h, out, sizeof out, 0, true);
	ck_assert_int_eq(h_run(&h), 0);
	for (uint32_t t = 0; t < 64; t++) {
		uint32_t v3 = (t & 1) ? t * 2 : 7, v4 = (t & 1) ? t : 5, carry = t >= 1;
		ck_assert_uint_eq(out[t], v3 + v4 + (carry << 16));
	}
	h_free(&h);
}
END_TEST

/* f32 -> f16 conversion rounds to nearest even at ties; f16 -> f32 exact;
 * packed f16 add; v_cvt_pkrtz truncates. */
START_TEST(f16_conversions_at_ties)
{
	Harness h;
	h_init(&h, "s_load_dwordx4 s[4:7], s[0:1], 0x0\n"
		   "v_and_b32 v0, 0x3ff, v0\n"
		   "v_lshlrev_b32 v1, 2, v0\n"
		   "s_waitcnt lgkmcnt(0)\n"
		   "global_load_dword v2, v1, s[4:5]\n"
		   "s_waitcnt vmcnt(0)\n"
		   "v_cvt_f16_f32 v4, v2\n"
		   "v_cvt_f32_f16 v5, v4\n"
		   "v_cvt_pkrtz_f16_f32 v6, v2, v2\n"
		   "v_pk_add_f16 v7, v6, v6\n"
		   "v_lshlrev_b32 v8, 4, v0\n"
		   "global_store_dwordx4 v8, v[4:7], s[6:7]");
	float in[64];
	uint32_t out[64][4];
	/* 1 + k*2^-11 sits exactly between two f16 values (spacing 2^-10) */
	for (int i = 0; i < 64; i++)
		in[i] = 1.0f + (float)(i % 16) * 0x1p-11f + (float)(i / 16) * 1024.0f;
	in[60] = 65520.0f; /* rounds to inf */
	in[61] = 0x1p-25f; /* half of the smallest subnormal: ties to 0 */
	in[62] = 0x1.8p-24f; /* 1.5 x smallest subnormal: ties to even (2) */
	in[63] = -2.5f;
	h_buffer(&h, in, sizeof in, 0, false);
	h_buffer(&h, out, sizeof out, 8, true);
	ck_assert_int_eq(h_run(&h), 0);
	for (int i = 0; i < 64; i++) {
		uint16_t want = dtype_f32_to_f16(in[i]);
		ck_assert_uint_eq(out[i][0], want);
		ck_assert_float_eq(fbits(out[i][1]), dtype_f16_to_f32(want));
		/* rtz: never larger in magnitude than the input */
		float rtz = dtype_f16_to_f32((uint16_t)out[i][2]);
		ck_assert(fabsf(rtz) <= fabsf(in[i]) || isinf(in[i]));
		ck_assert_uint_eq(out[i][2] & 0xffff, out[i][2] >> 16);
		ck_assert_uint_eq(out[i][3] & 0xffff, dtype_f32_to_f16(2 * rtz));
	}
	ck_assert_uint_eq(out[1][0], 0x3c00);  /* 1 + 2^-11: tie to even 1.0 */
	ck_assert_uint_eq(out[3][0], 0x3c02);  /* 1 + 3*2^-11: tie to even 1+2^-9 */
	ck_assert_uint_eq(out[60][0], 0x7c00);
	ck_assert_uint_eq(out[61][0], 0);
	ck_assert_uint_eq(out[62][0], 2);
	ck_assert_uint_eq(out[60][2] & 0xffff, 0x7bff); /* rtz clamps to max finite */
	h_free(&h);
}
END_TEST

/* Transcendentals and f32 math against libm. */
START_TEST(transcendentals)
{
	Harness h;
	h_init(&h, "s_load_dwordx4 s[4:7], s[0:1], 0x0\n"
		   "v_and_b32 v0, 0x3ff, v0\n"
		   "v_lshlrev_b32 v1, 2, v0\n"
		   "s_waitcnt lgkmcnt(0)\n"
		   "global_load_dword v2, v1, s[4:5]\n"
		   "s_waitcnt vmcnt(0)\n"
		   "v_exp_f32 v4, v2\n"
		   "v_log_f32 v5, v2\n"
		   "v_rcp_f32 v6, v2\n"
		   "v_rsq_f32 v7, v2\n"
		   "v_sqrt_f32 v8, v2\n"
		   "v_fma_f32 v9, v2, v2, -1.0\n"
		   "v_max3_f32 v10, v2, 1.0, -v2\n"
		   "v_cvt_i32_f32 v11, v2\n"
		   "v_lshlrev_b32 v12, 5, v0\n"
		   "global_store_dwordx4 v12, v[4:7], s[6:7]\n"
		   "global_store_dwordx4 v12, v[8:11], s[6:7] offset:16");
	float in[64], out[64][8];
	for (int i = 0; i < 64; i++)
		in[i] = 0.125f + (float)i * 0.37f;
	h_buffer(&h, in, sizeof in, 0, false);
	h_buffer(&h, out, sizeof out, 8, true);
	ck_assert_int_eq(h_run(&h), 0);
	for (int i = 0; i < 64; i++) {
		float x = in[i];
		ck_assert_float_eq_tol(out[i][0], exp2f(x), exp2f(x) * 1e-6f);
		ck_assert_float_eq_tol(out[i][1], log2f(x), 1e-6f);
		ck_assert_float_eq_tol(out[i][2], 1.0f / x, 1e-6f / x);
		ck_assert_float_eq_tol(out[i][3], 1.0f / sqrtf(x), 1e-6f);
		ck_assert_float_eq(out[i][4], sqrtf(x));
		ck_assert_float_eq(out[i][5], fmaf(x, x, -1.0f));
		ck_assert_float_eq(out[i][6], fmaxf(x, 1.0f));
		uint32_t iv;
		memcpy(&iv, &out[i][7], 4);
		ck_assert_int_eq((int32_t)iv, (int32_t)x);
	}
	h_free(&h);
}
END_TEST

/* DPP row_shr:1 (bound_ctrl zero), quad_perm, row_bcast:15 and wave_shr:1
 * against the documented permutations; ds_swizzle, ds_bpermute, readlane,
 * writelane, readfirstlane. */
START_TEST(cross_lane_ops)
{
	Harness h;
	h_init(&h, "s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
		   "v_and_b32 v0, 0x3ff, v0\n"
		   "v_add_u32 v1, 100, v0\n"
		   "v_mov_b32 v2, -1\n"
		   "v_mov_b32_dpp v2, v1 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0\n"
		   "v_mov_b32_dpp v3, v1 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf\n"
		   "v_mov_b32 v4, -1\n"
		   "v_mov_b32_dpp v4, v1 row_bcast:15 row_mask:0xa bank_mask:0xf\n"
		   "v_mov_b32 v5, -1\n"
		   "v_add_u32_dpp v5, v1, v1 wave_shr:1 row_mask:0xf bank_mask:0xf\n"
		   "v_mov_b32 v6, 0\n"
		   "v_sub_u32 v7, 63, v0\n"
		   "v_lshlrev_b32 v7, 2, v7\n"
		   "ds_bpermute_b32 v7, v7, v1\n"
		   "s_mov_b32 s8, 37\n"
		   "v_readlane_b32 s9, v1, s8\n"
		   "v_readfirstlane_b32 s10, v1\n"
		   "v_mov_b32 v8, s9\n"
		   "v_writelane_b32 v8, s10, 5\n"
		   "v_lshlrev_b32 v9, 5, v0\n"
		   "s_waitcnt lgkmcnt(0)\n"
		   "global_store_dwordx4 v9, v[2:5], s[4:5]\n"
		   "global_store_dwordx3 v9, v[6:8], s[4:5] offset:16");
	uint32_t out[64][8];
	h_buffer(&h, out, sizeof out, 0, true);
	ck_assert_int_eq(h_run(&h), 0);
	for (int l = 0; l < 64; l++) {
		uint32_t v1 = 100 + (uint32_t)l;
		ck_assert_uint_eq(out[l][0], (l & 15) == 0 ? 0 : v1 - 1);
		ck_assert_uint_eq(out[l][1], 100 + (uint32_t)((l & ~3) | (3 - (l & 3))));
		uint32_t bc = (l >> 4) == 1 || (l >> 4) == 3 ? 100 + (uint32_t)((l & ~15) - 1) : 0xffffffffu;
		ck_assert_uint_eq(out[l][2], bc);
		ck_assert_uint_eq(out[l][3], l == 0 ? 0xffffffffu : v1 + v1 - 1);
		ck_assert_uint_eq(out[l][5], 100 + (uint32_t)(63 - l));
		ck_assert_uint_eq(out[l][6], l == 5 ? 100u : 137u);
	}
	h_free(&h);
}
END_TEST

/* ds_swizzle in bitmask mode: and/or/xor masks from an explicit offset. */
START_TEST(ds_swizzle_bitmask_and_quad)
{
	Harness h;
	/* offset = and_mask | or_mask << 5 | xor_mask << 10 */
	h_init(&h, "s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
		   "v_and_b32 v0, 0x3ff, v0\n"
		   "v_mul_u32_u24 v1, 3, v0\n"
		   "ds_swizzle_b32 v2, v1 offset:0x041c\n"          /* and 0x1c, or 0, xor 1 */
		   "ds_swizzle_b32 v3, v1 offset:0x801b\n"          /* quad perm [3,2,1,0] */
		   "v_lshlrev_b32 v4, 3, v0\n"
		   "s_waitcnt lgkmcnt(0)\n"
		   "global_store_dwordx2 v4, v[2:3], s[4:5]");
	uint32_t out[64][2];
	h_buffer(&h, out, sizeof out, 0, true);
	ck_assert_int_eq(h_run(&h), 0);
	for (int l = 0; l < 64; l++) {
		int s = (l & 32) | (((l & 0x1c) | 0) ^ 1);
		ck_assert_uint_eq(out[l][0], 3u * (uint32_t)s);
		int q = (l & ~3) | ((0x1b >> (2 * (l & 3))) & 3);
		ck_assert_uint_eq(out[l][1], 3u * (uint32_t)q);
	}
	h_free(&h);
}
END_TEST

/* Raw buffer loads/stores: num_records masks per dword; stores dropped. */
START_TEST(buffer_out_of_range)
{
	Harness h;
	h_init(&h, "s_load_dwordx4 s[8:11], s[0:1], 0x0\n"
		   "s_load_dwordx4 s[12:15], s[0:1], 0x10\n"
		   "v_and_b32 v0, 0x3ff, v0\n"
		   "v_lshlrev_b32 v1, 4, v0\n"
		   "s_mov_b32 s16, 4\n"
		   "s_waitcnt lgkmcnt(0)\n"
		   "buffer_load_dwordx4 v[2:5], v1, s[8:11], s16 offen offset:4\n"
		   "s_waitcnt vmcnt(0)\n"
		   "buffer_store_dwordx4 v[2:5], v1, s[12:15], 0 offen");
	uint32_t src[300], dst[256];
	for (int i = 0; i < 300; i++)
		src[i] = 1000u + (uint32_t)i;
	for (int i = 0; i < 256; i++)
		dst[i] = 0xdeadbeef;
	/* descriptors as kernargs: base, num_records, word3 = 0x00020000 */
	uint64_t sa = emu_mem_map(h.mem, src, sizeof src, 256, false, "src");
	uint64_t da = emu_mem_map(h.mem, dst, sizeof dst, 256, true, "dst");
	uint32_t d0[4] = {(uint32_t)sa, (uint32_t)(sa >> 32), 203 * 4 + 2, 0x00020000};
	uint32_t d1[4] = {(uint32_t)da, (uint32_t)(da >> 32), 230 * 4, 0x00020000};
	memcpy(h.kernarg, d0, 16);
	memcpy(h.kernarg + 16, d1, 16);
	ck_assert_int_eq(h_run(&h), 0);
	for (int i = 0; i < 256; i++) {
		/* loaded dword i: byte offset 4*i + 8 must end within 203*4+2 */
		uint32_t want = (uint32_t)(4 * i + 8 + 4) <= 203 * 4 + 2 ? src[i + 2] : 0;
		if (i >= 230)
			ck_assert_uint_eq(dst[i], 0xdeadbeef); /* store out of range: dropped */
		else
			ck_assert_uint_eq(dst[i], want);
	}
	ck_assert_uint_eq(dst[200], src[202]); /* lane 50: first dword in range */
	ck_assert_uint_eq(dst[201], 0);        /* ... the rest of the x4 is not */
	ck_assert_uint_eq(dst[229], 0);
	h_free(&h);
}
END_TEST

/* Two waves exchange data through LDS across s_barrier; ds_read2/write2,
 * b64 and b128 forms. Wave 1 reads what wave 0 wrote and vice versa. */
START_TEST(lds_barrier_exchange)
{
	Harness h;
	h_init(&h, "s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
		   "v_and_b32 v0, 0x3ff, v0\n"
		   "v_lshlrev_b32 v1, 3, v0\n"
		   "v_mul_u32_u24 v2, 7, v0\n"
		   "v_add_u32 v3, 1, v2\n"
		   "ds_write2_b32 v1, v2, v3 offset1:1\n"
		   "s_waitcnt lgkmcnt(0)\n"
		   "s_barrier\n"
		   "v_xor_b32 v4, 64, v0\n"       /* partner in the other wave */
		   "v_lshlrev_b32 v4, 3, v4\n"
		   "ds_read_b64 v[6:7], v4\n"
		   "ds_read2_b32 v[8:9], v4 offset0:1 offset1:0\n"
		   "s_waitcnt lgkmcnt(0)\n"
		   "s_barrier\n"
		   "v_lshlrev_b32 v10, 4, v0\n"
		   "ds_write_b128 v10, v[6:9]\n"
		   "ds_read_b128 v[12:15], v10\n"
		   "s_waitcnt lgkmcnt(0)\n"
		   "global_store_dwordx4 v10, v[12:15], s[4:5]");
	uint32_t out[128][4];
	h_buffer(&h, out, sizeof out, 0, true);
	h.l.wg_size[0] = 128;
	h.l.kd.group_segment_fixed_size = 2048;
	ck_assert_int_eq(h_run(&h), 0);
	for (uint32_t t = 0; t < 128; t++) {
		uint32_t p = t ^ 64;
		ck_assert_uint_eq(out[t][0], 7 * p);
		ck_assert_uint_eq(out[t][1], 7 * p + 1);
		ck_assert_uint_eq(out[t][2], 7 * p + 1);
		ck_assert_uint_eq(out[t][3], 7 * p);
	}
	h_free(&h);
}
END_TEST

/* Bug 16: wave 3 of 4 exits early; waves 0-2 meet at s_barrier (0 and 2 at
 * one s_barrier, 1 at another) and are released: ended waves no longer
 * count toward the barrier. Each surviving wave then reads a value another
 * wave stored to LDS before the barrier. */
START_TEST(barrier_after_early_exit)
{
	uint32_t out[256];
	memset(out, 0xff, sizeof out);
	Harness h;
	h_init(&h, "s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
		   "v_and_b32 v0, 0x3ff, v0\n"
		   "v_readfirstlane_b32 s6, v0\n"
		   "s_lshr_b32 s6, s6, 6\n" /* wave index */
		   "s_cmp_eq_u32 s6, 3\n"
		   "s_cbranch_scc1 out\n"
		   "v_lshlrev_b32 v1, 2, v0\n"
		   "v_add_u32 v2, 1000, v0\n"
		   "ds_write_b32 v1, v2\n"
		   "s_waitcnt lgkmcnt(0)\n"
		   "s_bitcmp1_b32 s6, 0\n"
		   "s_cbranch_scc1 odd\n"
		   "s_barrier\n"
		   "s_branch joined\n"
		   "odd:\n"
		   "s_barrier\n"
		   "joined:\n"
		   "v_add_u32 v3, 64, v0\n" /* the next wave's lane, mod 192 */
		   "v_cmp_le_u32 vcc, 192, v3\n"
		   "v_subrev_u32 v4, 192, v3\n"
		   "v_cndmask_b32 v3, v3, v4, vcc\n"
		   "v_lshlrev_b32 v3, 2, v3\n"
		   "ds_read_b32 v5, v3\n"
		   "s_waitcnt lgkmcnt(0)\n"
		   "s_waitcnt vmcnt(0) lgkmcnt(0)\n"
		   "global_store_dword v1, v5, s[4:5]\n"
		   "out:\n");
	h.l.wg_size[0] = 256;
	h.l.kd.group_segment_fixed_size = 1024;
	h_buffer(&h, out, sizeof out, 0, true);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	for (uint32_t t = 0; t < 192; t++)
		ck_assert_uint_eq(out[t], 1000 + (t + 64) % 192);
	for (uint32_t t = 192; t < 256; t++)
		ck_assert_uint_eq(out[t], 0xffffffffu);
	h_free(&h);
}
END_TEST

START_TEST(instruction_cap)
{
	Harness h;
	h_init(&h, "loop:\ns_branch loop");
	h.l.max_instructions = 5000;
	ck_assert_int_eq(h_run(&h), -1);
	ck_assert_ptr_nonnull(strstr(h.err, "instruction limit of 5000"));
	ck_assert_ptr_nonnull(strstr(h.err, "raise it with --max-instructions N"));
	ck_assert_ptr_nonnull(strstr(h.err, "s_branch"));
	h_free(&h);
}
END_TEST

START_TEST(out_of_bounds_access_reported)
{
	Harness h;
	h_init(&h, "s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
		   "v_and_b32 v0, 0x3ff, v0\n"
		   "v_lshlrev_b32 v1, 2, v0\n"
		   "s_waitcnt lgkmcnt(0)\n"
		   "global_store_dword v1, v0, s[4:5]");
	uint32_t small[40];
	h_buffer(&h, small, sizeof small, 0, true);
	ck_assert_int_eq(h_run(&h), -1);
	ck_assert_ptr_nonnull(strstr(h.err, "outside any mapped region"));
	ck_assert_ptr_nonnull(strstr(h.err, "lane 40"));
	ck_assert_ptr_nonnull(strstr(h.err, "global_store_dword"));
	h_free(&h);
}
END_TEST

START_TEST(unknown_and_unimplemented_reported)
{
	Harness h;
	h_init(&h, ".long 0xffffffff\n");
	ck_assert_int_eq(h_run(&h), -1);
	ck_assert_ptr_nonnull(strstr(h.err, "unknown instruction encoding"));
	ck_assert_ptr_nonnull(strstr(h.err, "0x100000"));
	h_free(&h);
	h_init(&h, "v_mfma_f32_4x4x1_16b_f32 a[0:3], v0, v1, a[0:3]");
	ck_assert_int_eq(h_run(&h), -1);
	ck_assert_ptr_nonnull(strstr(h.err, "unimplemented instruction v_mfma_f32_4x4x1_16b_f32"));
	h_free(&h);
}
END_TEST

/* Bad launch parameters are rejected, not crashed on. */
START_TEST(bad_launch_rejected)
{
	Harness h;
	h_init(&h, "s_nop 0");
	h.l.wg_size[0] = 2048;
	ck_assert_int_eq(h_run(&h), -1);
	ck_assert_ptr_nonnull(strstr(h.err, "workgroup size"));
	h.l.wg_size[0] = 64;
	h.l.kd_addr = 0x500000;
	ck_assert_int_eq(h_run(&h), -1);
	ck_assert_ptr_nonnull(strstr(h.err, "not in mapped memory"));
	h_free(&h);
}
END_TEST

/* A workgroup whose waves cannot all hold their VGPRs and AGPRs on the 4
 * SIMDs (512 per lane each) could not launch on hardware: the emulator
 * refuses it. 8 waves of 256 fit (2 per SIMD), 8 of 264 do not; 4 waves of
 * 512 fit (one per SIMD), 5 do not. The LDS limit likewise (64 KiB). */
START_TEST(register_file_and_lds_limits)
{
	static const struct {
		uint32_t threads, vgprs;
		bool ok;
	} cases[] = {{512, 256, true}, {512, 264, false}, {256, 512, true}, {320, 512, false}, {1024, 128, true},
		{1024, 136, false}, {64, 512, true}};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		Harness h;
		h_init(&h, "s_nop 0");
		h.l.wg_size[0] = cases[i].threads;
		h.l.kd.vgpr_alloc = cases[i].vgprs;
		h.l.kd.accum_offset = cases[i].vgprs / 2;
		int rc = h_run(&h);
		ck_assert_msg(rc == (cases[i].ok ? 0 : -1), "%u threads, %u registers: %s", cases[i].threads,
			cases[i].vgprs, h.err);
		if (!cases[i].ok)
			ck_assert_msg(strstr(h.err, "on each SIMD, whose 512 registers per lane") &&
					      strstr(h.err, "it could not launch"),
				"%s", h.err);
		h_free(&h);
	}
	Harness h;
	h_init(&h, "s_nop 0");
	h.l.kd.group_segment_fixed_size = 65536;
	ck_assert_int_eq(h_run(&h), 0);
	h.l.kd.group_segment_fixed_size = 65540;
	ck_assert_int_eq(h_run(&h), -1);
	ck_assert_ptr_nonnull(strstr(h.err, "LDS of 65540 bytes exceeds the 65536-byte limit"));
	h_free(&h);
}
END_TEST

/* s_getpc / s_swappc / s_setpc: a call and a return. */
START_TEST(call_and_return)
{
	Harness h;
	h_init(&h, "s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
		   "v_mov_b32 v3, 1\n"
		   "s_getpc_b64 s[10:11]\n"
		   "base:\n"
		   "s_add_u32 s10, s10, func-base\n"
		   "s_addc_u32 s11, s11, 0\n"
		   "s_swappc_b64 s[12:13], s[10:11]\n"
		   "v_add_u32 v3, v3, 5\n"
		   "v_mov_b32 v1, 0\n"
		   "s_waitcnt lgkmcnt(0)\n"
		   "global_store_dword v1, v3, s[4:5]\n"
		   "s_endpgm\n"
		   "func:\n"
		   "v_mul_u32_u24 v3, v3, 42\n"
		   "s_setpc_b64 s[12:13]");
	uint32_t out = 0;
	h_buffer(&h, &out, sizeof out, 0, true);
	ck_assert_int_eq(h_run(&h), 0);
	ck_assert_uint_eq(out, 47);
	h_free(&h);
}
END_TEST

/* More DPP controls: row_ror, row_mirror, row_half_mirror, row_bcast:31,
 * wave_rol, row_shl with bound_ctrl off (lanes keep their old value). */
START_TEST(dpp_more_patterns)
{
	Harness h;
	h_init(&h, "s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
		   "v_and_b32 v0, 0x3ff, v0\n"
		   "v_add_u32 v1, 100, v0\n"
		   "v_mov_b32_dpp v2, v1 row_ror:3 row_mask:0xf bank_mask:0xf\n"
		   "v_mov_b32_dpp v3, v1 row_mirror row_mask:0xf bank_mask:0xf\n"
		   "v_mov_b32_dpp v4, v1 row_half_mirror row_mask:0xf bank_mask:0xf\n"
		   "v_mov_b32 v5, -1\n"
		   "v_mov_b32_dpp v5, v1 row_bcast:31 row_mask:0xc bank_mask:0xf\n"
		   "v_mov_b32_dpp v6, v1 wave_rol:1 row_mask:0xf bank_mask:0xf\n"
		   "v_mov_b32 v7, -1\n"
		   "v_mov_b32_dpp v7, v1 row_shl:2 row_mask:0xf bank_mask:0x5\n"
		   "v_lshlrev_b32 v9, 5, v0\n"
		   "s_waitcnt lgkmcnt(0)\n"
		   "global_store_dwordx4 v9, v[2:5], s[4:5]\n"
		   "global_store_dwordx2 v9, v[6:7], s[4:5] offset:16");
	uint32_t out[64][8];
	h_buffer(&h, out, sizeof out, 0, true);
	ck_assert_int_eq(h_run(&h), 0);
	for (int l = 0; l < 64; l++) {
		int r = l & 15, row = l & ~15;
		ck_assert_uint_eq(out[l][0], 100u + (uint32_t)(row | ((r - 3) & 15)));
		ck_assert_uint_eq(out[l][1], 100u + (uint32_t)(row | (15 - r)));
		ck_assert_uint_eq(out[l][2], 100u + (uint32_t)((l & ~7) | (7 - (l & 7))));
		ck_assert_uint_eq(out[l][3], l >= 32 ? 131u : 0xffffffffu);
		ck_assert_uint_eq(out[l][4], 100u + (uint32_t)((l + 1) & 63));
		bool bank = ((l >> 2) & 3) == 0 || ((l >> 2) & 3) == 2; /* bank_mask 0x5 */
		uint32_t want = !bank ? 0xffffffffu : r + 2 > 15 ? 0xffffffffu : 100u + (uint32_t)l + 2;
		ck_assert_uint_eq(out[l][5], want);
	}
	h_free(&h);
}
END_TEST

/* FLAT with a generic pointer into the LDS aperture (src_shared_base). */
START_TEST(flat_lds_aperture)
{
	Harness h;
	h_init(&h, "s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
		   "v_and_b32 v0, 0x3ff, v0\n"
		   "v_lshlrev_b32 v1, 2, v0\n"
		   "s_mov_b64 s[6:7], src_shared_base\n"
		   "v_mov_b32 v2, v1\n"
		   "v_mov_b32 v3, s7\n"
		   "v_mul_u32_u24 v4, 9, v0\n"
		   "flat_store_dword v[2:3], v4\n"
		   "s_waitcnt vmcnt(0) lgkmcnt(0)\n"
		   "v_xor_b32 v5, 4, v1\n"
		   "ds_read_b32 v6, v5\n"
		   "s_waitcnt lgkmcnt(0)\n"
		   "global_store_dword v1, v6, s[4:5]");
	uint32_t out[64];
	h_buffer(&h, out, sizeof out, 0, true);
	h.l.kd.group_segment_fixed_size = 256;
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	for (uint32_t l = 0; l < 64; l++)
		ck_assert_uint_eq(out[l], 9 * (l ^ 1));
	h_free(&h);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("emu_exec");
	TCase *tc = tcase_create("exec");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, vadd_multi_workgroup);
	tcase_add_test(tc, scalar_loop_and_branches);
	tcase_add_test(tc, exec_masking_and_carry);
	tcase_add_test(tc, f16_conversions_at_ties);
	tcase_add_test(tc, transcendentals);
	tcase_add_test(tc, cross_lane_ops);
	tcase_add_test(tc, ds_swizzle_bitmask_and_quad);
	tcase_add_test(tc, buffer_out_of_range);
	tcase_add_test(tc, lds_barrier_exchange);
	tcase_add_test(tc, barrier_after_early_exit);
	tcase_add_test(tc, instruction_cap);
	tcase_add_test(tc, out_of_bounds_access_reported);
	tcase_add_test(tc, unknown_and_unimplemented_reported);
	tcase_add_test(tc, bad_launch_rejected);
	tcase_add_test(tc, register_file_and_lds_limits);
	tcase_add_test(tc, call_and_return);
	tcase_add_test(tc, dpp_more_patterns);
	tcase_add_test(tc, flat_lds_aperture);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
