/* foreign_test.c — instructions wavecc never emits but AMD's hand-written
 * gfx942 kernels (ROCm/aiter's code objects) use: VGPR indexing by M0
 * (s_set_gpr_idx_on/off/mode/idx), s_setvskip, s_nor_b32, s_bfm_b64,
 * v_cvt_off_f32_i4, global_atomic_pk_add_bf16, the scalar atomics
 * s_atomic_inc/dec and the DPP control row_newbcast. Each snippet is assembled by llvm-mc-19 and its
 * results are computed here from the ISA guide's descriptions (the Vega and
 * CDNA3 instruction set references): no emulator code is shared. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../util/dtype.h"
#include "emu_harness.h"

static float F(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* v1 = 4*lane; s[4:5], s[6:7] = the kernarg pointers at 0 and 8 */
#define PROLOGUE \
	"s_load_dwordx4 s[4:7], s[0:1], 0x0\n" \
	"v_and_b32 v0, 0x3ff, v0\n" \
	"v_lshlrev_b32 v1, 2, v0\n" \
	"s_waitcnt lgkmcnt(0)\n"

/* GPR indexing: with src0 indexed by 3, v_mov_b32 v20, v10 reads v13; with
 * dst indexed by 2, v_mov_b32 v20, v10 writes v22; s_set_gpr_idx_idx and
 * _mode change the index and the mode; after _off nothing is offset; M0 is
 * [15:12] mode, [7:0] index, its other bits kept. */
START_TEST(gpr_index_mode)
{
	Harness h;
	h_init(&h, PROLOGUE
		   "v_mov_b32 v10, 10\n"
		   "v_mov_b32 v11, 11\n"
		   "v_mov_b32 v12, 12\n"
		   "v_mov_b32 v13, 13\n"
		   "v_mov_b32 v20, 0\n"
		   "v_mov_b32 v21, 0\n"
		   "v_mov_b32 v22, 0\n"
		   "s_mov_b32 m0, 0x7ff0000\n"
		   "s_mov_b32 s20, 0x103\n"
		   "s_set_gpr_idx_on s20, gpr_idx(SRC0)\n"
		   "v_mov_b32 v20, v10\n"           /* v20 = v13 = 13 */
		   "s_set_gpr_idx_idx 1\n"
		   "v_add_u32 v21, v10, v10\n"      /* src0 v11, src1 v10: 21 */
		   "s_set_gpr_idx_mode gpr_idx(DST)\n"
		   "s_set_gpr_idx_idx 2\n"
		   "v_mov_b32 v20, v10\n"           /* v22 = v10 = 10 */
		   "s_mov_b32 s21, m0\n"
		   "s_set_gpr_idx_off\n"
		   "v_add_u32 v23, v20, v21\n"      /* 13 + 21 */
		   "v_add_u32 v24, v22, v23\n"      /* 10 + 34 */
		   "v_mov_b32 v25, s21\n"
		   "v_lshlrev_b32 v2, 3, v0\n"
		   "global_store_dwordx2 v2, v[24:25], s[4:5]\n");
	uint32_t out[128];
	memset(out, 0xee, sizeof out);
	h_buffer(&h, out, sizeof out, 0, true);
	ck_assert_int_eq(h_run(&h), 0);
	for (int l = 0; l < 64; l++) {
		ck_assert_uint_eq(out[2 * l], 44);
		ck_assert_uint_eq(out[2 * l + 1], 0x7ff8002); /* mode DST (8) at [15:12], index 2 */
	}
	h_free(&h);
}
END_TEST

/* s_setvskip: with VSKIP = s20 bit 1 set, vector instructions (a VALU op
 * and a store) are skipped; with it clear they run. */
START_TEST(setvskip_skips_vector_instructions)
{
	Harness h;
	h_init(&h, PROLOGUE
		   "v_mov_b32 v2, 1\n"
		   "s_mov_b32 s20, 2\n"
		   "s_setvskip s20, 1\n"
		   "v_mov_b32 v2, 2\n"
		   "global_store_dword v1, v2, s[6:7]\n"
		   "s_setvskip s20, 0\n"
		   "v_add_u32 v2, 40, v2\n"
		   "global_store_dword v1, v2, s[4:5]\n");
	uint32_t out[64], other[64];
	memset(out, 0, sizeof out);
	memset(other, 0x55, sizeof other);
	h_buffer(&h, out, sizeof out, 0, true);
	h_buffer(&h, other, sizeof other, 8, true);
	ck_assert_int_eq(h_run(&h), 0);
	for (int l = 0; l < 64; l++) {
		ck_assert_uint_eq(out[l], 41);
		ck_assert_uint_eq(other[l], 0x55555555u);
	}
	h_free(&h);
}
END_TEST

/* s_nor_b32 (and SCC), s_bfm_b64, v_cvt_off_f32_i4 over all 16 codes. */
START_TEST(scalar_bits_and_cvt_off)
{
	Harness h;
	h_init(&h, PROLOGUE
		   "s_mov_b32 s20, 0xf0f0f0f0\n"
		   "s_mov_b32 s21, 0x0000ff00\n"
		   "s_nor_b32 s22, s20, s21\n"
		   "s_cselect_b32 s23, 1, 0\n"
		   "s_nor_b32 s24, -1, 0\n"
		   "s_cselect_b32 s25, 1, 0\n"
		   "s_mov_b32 s26, 40\n"
		   "s_mov_b32 s27, 20\n"
		   "s_bfm_b64 s[28:29], s26, s27\n"
		   "v_cvt_off_f32_i4 v2, v0\n"
		   "v_mov_b32 v3, s22\n"
		   "v_mov_b32 v4, s23\n"
		   "v_mov_b32 v5, s24\n"
		   "v_mov_b32 v6, s25\n"
		   "v_mov_b32 v7, s28\n"
		   "v_mov_b32 v8, s29\n"
		   "v_mov_b32 v9, 0\n"
		   "v_lshlrev_b32 v10, 5, v0\n"
		   "global_store_dwordx4 v10, v[2:5], s[4:5]\n"
		   "global_store_dwordx4 v10, v[6:9], s[4:5] offset:16\n");
	uint32_t out[64 * 8];
	h_buffer(&h, out, sizeof out, 0, true);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	uint64_t bfm = ((UINT64_C(1) << 40) - 1) << 20;
	for (int l = 0; l < 64; l++) {
		const uint32_t *o = out + 8 * l;
		int i4 = (l & 15) >= 8 ? (l & 15) - 16 : (l & 15);
		ck_assert_msg(F(o[0]) == (float)i4 / 16.0f, "lane %d: %g", l, (double)F(o[0]));
		ck_assert_uint_eq(o[1], ~(0xf0f0f0f0u | 0xff00u));
		ck_assert_uint_eq(o[2], 1);
		ck_assert_uint_eq(o[3], 0);
		ck_assert_uint_eq(o[4], 0);
		ck_assert_uint_eq(o[5], (uint32_t)bfm);
		ck_assert_uint_eq(o[6], (uint32_t)(bfm >> 32));
	}
	h_free(&h);
}
END_TEST

static uint16_t bf(float f) { return dtype_f32_to_bf16(f); }

/* global_atomic_pk_add_bf16 from every lane onto 4 dwords (16 lanes each):
 * each half the bf16 rounding of the running sum, in lane order (the
 * emulator applies a wave's lanes in order, as the hardware serialises
 * them; the values are chosen so every partial sum is exact). */
START_TEST(global_atomic_pk_add_bf16)
{
	Harness h;
	h_init(&h, PROLOGUE
		   "global_load_dword v2, v1, s[6:7]\n"
		   "v_and_b32 v3, 3, v0\n"
		   "v_lshlrev_b32 v3, 2, v3\n"
		   "s_waitcnt vmcnt(0)\n"
		   "global_atomic_pk_add_bf16 v3, v2, s[4:5]\n"
		   "s_waitcnt vmcnt(0)\n");
	uint32_t acc[4], in[64];
	for (int i = 0; i < 4; i++)
		acc[i] = (uint32_t)bf(1.0f) | (uint32_t)bf(-2.0f) << 16;
	for (int l = 0; l < 64; l++)
		in[l] = (uint32_t)bf(0.25f * (float)(l % 7)) | (uint32_t)bf(-0.5f) << 16;
	h_buffer(&h, acc, sizeof acc, 0, true);
	h_buffer(&h, in, sizeof in, 8, false);
	ck_assert_int_eq(h_run(&h), 0);
	for (int i = 0; i < 4; i++) {
		float lo = 1.0f, hi = -2.0f;
		for (int l = i; l < 64; l += 4)
			lo += 0.25f * (float)(l % 7), hi -= 0.5f;
		ck_assert_uint_eq(acc[i] & 0xffff, bf(lo));
		ck_assert_uint_eq(acc[i] >> 16, bf(hi));
	}
	h_free(&h);
}
END_TEST

/* s_atomic_inc / s_atomic_dec (with glc: the old value comes back): inc
 * wraps to 0 at the bound, dec wraps to the bound at 0 and above it. */
START_TEST(scalar_atomics)
{
	Harness h;
	h_init(&h, PROLOGUE
		   "s_mov_b32 s20, 5\n"
		   "s_atomic_inc s20, s[4:5], 0x0 glc\n"  /* [0] 5 -> 0 (5 >= 5), s20 = 5 */
		   "s_mov_b32 s21, 10\n"
		   "s_atomic_inc s21, s[4:5], 0x4 glc\n"  /* [1] 7 -> 8, s21 = 7 */
		   "s_mov_b32 s22, 9\n"
		   "s_atomic_dec s22, s[4:5], 0x8 glc\n"  /* [2] 0 -> 9, s22 = 0 */
		   "s_mov_b32 s23, 9\n"
		   "s_atomic_dec s23, s[4:5], 0xc\n"      /* [3] 12 -> 9 (12 > 9), s23 kept: 9 */
		   "s_mov_b32 s24, 9\n"
		   "s_atomic_dec s24, s[4:5], 0x10 glc\n" /* [4] 4 -> 3, s24 = 4 */
		   "s_waitcnt lgkmcnt(0)\n"
		   "v_mov_b32 v2, s20\n"
		   "v_mov_b32 v3, s21\n"
		   "v_mov_b32 v4, s22\n"
		   "v_mov_b32 v5, s23\n"
		   "v_mov_b32 v6, s24\n"
		   "v_mov_b32 v7, 0\n"
		   "v_mov_b32 v8, 0\n"
		   "v_mov_b32 v9, 0\n"
		   "v_cmp_eq_u32 vcc, 0, v0\n"
		   "s_and_b64 exec, exec, vcc\n"
		   "global_store_dwordx4 v7, v[2:5], s[6:7]\n"
		   "global_store_dword v7, v6, s[6:7] offset:16\n");
	uint32_t mem[5] = {5, 7, 0, 12, 4}, got[5] = {0};
	h_buffer(&h, mem, sizeof mem, 0, true);
	h_buffer(&h, got, sizeof got, 8, true);
	ck_assert_int_eq(h_run(&h), 0);
	static const uint32_t want_mem[5] = {0, 8, 9, 9, 3}, want_got[5] = {5, 7, 0, 9, 4};
	for (int i = 0; i < 5; i++) {
		ck_assert_uint_eq(mem[i], want_mem[i]);
		ck_assert_uint_eq(got[i], want_got[i]);
	}
	h_free(&h);
}
END_TEST

/* DPP row_newbcast:n: lane n of each row of 16 read by the whole row. */
START_TEST(dpp_row_newbcast)
{
	Harness h;
	h_init(&h, PROLOGUE
		   "v_mul_u32_u24 v2, 3, v0\n"
		   "v_mov_b32 v6, -1\n"
		   "v_mov_b32 v7, -1\n"
		   "s_nop 1\n"
		   "v_mov_b32_dpp v6, v2 row_newbcast:5 row_mask:0xf bank_mask:0xf\n"
		   "v_mov_b32_dpp v7, v2 row_newbcast:15 row_mask:0x5 bank_mask:0xf\n"
		   "v_lshlrev_b32 v5, 3, v0\n"
		   "global_store_dwordx2 v5, v[6:7], s[4:5]\n");
	uint32_t out[128];
	h_buffer(&h, out, sizeof out, 0, true);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	for (int l = 0; l < 64; l++) {
		ck_assert_uint_eq(out[2 * l], 3u * (uint32_t)((l & ~15) | 5));
		ck_assert_uint_eq(out[2 * l + 1], (l >> 4) & 1 ? 0xffffffffu : 3u * (uint32_t)((l & ~15) | 15));
	}
	h_free(&h);
}
END_TEST

/* The listing names them as llvm-mc does. */
START_TEST(disassembly)
{
	static const char *src = "s_set_gpr_idx_on s65, gpr_idx(SRC0,DST)\n"
				 "s_set_gpr_idx_mode gpr_idx(SRC1)\n"
				 "s_set_gpr_idx_off\n"
				 "s_setvskip s20, 3\n";
	uint8_t *code;
	size_t n = h_assemble(src, &code, "gfx942");
	ck_assert_uint_gt(n, 0);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ck_assert_uint_eq(emu_disassemble(EMU_GFX942, code, n, 0, f), 0);
	fclose(f);
	ck_assert_msg(strstr(text, "s_set_gpr_idx_on s65, gpr_idx(SRC0,DST)") &&
			      strstr(text, "s_set_gpr_idx_mode gpr_idx(SRC1)") && strstr(text, "s_set_gpr_idx_off\n") &&
			      strstr(text, "s_setvskip s20, 3"),
		"%s", text);
	free(text);
	free(code);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("foreign");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, gpr_index_mode);
	tcase_add_test(tc, setvskip_skips_vector_instructions);
	tcase_add_test(tc, scalar_bits_and_cvt_off);
	tcase_add_test(tc, global_atomic_pk_add_bf16);
	tcase_add_test(tc, scalar_atomics);
	tcase_add_test(tc, dpp_row_newbcast);
	tcase_add_test(tc, disassembly);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
