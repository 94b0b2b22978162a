/* mfma_test.c — MFMA against a naive C matmul, with the operand and result
 * lane layouts AMD documents for CDNA3 written out here independently of the
 * emulator: VGPR form with an inline-constant C (16x16x16 f16), AGPR form
 * with C written and D read through v_accvgpr_write/read (32x32x8 bf16), and
 * a VGPR-C accumulation (32x32x8 f16). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../../util/dtype.h"
#include "emu_harness.h"

typedef struct {
	int m, k;
	bool bf16;
} Shape;

/* Pack A (m x k) and B (k x m) per lane: lane l holds row/col l % m and
 * k = 4*floor(l/m) + {0..3} in two dwords, low half first. */
static void pack(const Shape *s, const float *A, const float *B, uint32_t pa[64][2], uint32_t pb[64][2])
{
	for (int l = 0; l < 64; l++)
		for (int e = 0; e < 4; e++) {
			int i = l % s->m, k = 4 * (l / s->m) + e;
			float a = A[i * s->k + k], b = B[k * s->m + i];
			uint16_t ha = s->bf16 ? dtype_f32_to_bf16(a) : dtype_f32_to_f16(a), hb = s->bf16 ? dtype_f32_to_bf16(b) : dtype_f32_to_f16(b);
			if (e % 2 == 0)
				pa[l][e / 2] = ha, pb[l][e / 2] = hb;
			else
				pa[l][e / 2] |= (uint32_t)ha << 16, pb[l][e / 2] |= (uint32_t)hb << 16;
		}
}

/* The documented D layout: 16x16 reg r, lane l -> row 4*floor(l/16) + r;
 * 32x32 -> row 8*floor(r/4) + 4*floor(l/32) + r%4; column l % m. */
static int d_row(int m, int l, int r)
{
	return m == 16 ? 4 * (l / 16) + r : 8 * (r / 4) + 4 * (l / 32) + r % 4;
}

static void check(const Shape *s, const float *A, const float *B, float c0, const float (*out)[16], int nreg)
{
	for (int l = 0; l < 64; l++)
		for (int r = 0; r < nreg; r++) {
			int i = d_row(s->m, l, r), j = l % s->m;
			double want = c0;
			for (int k = 0; k < s->k; k++)
				want += (double)A[i * s->k + k] * B[k * s->m + j];
			ck_assert_msg(fabs(out[l][r] - want) <= 1e-3 * (1 + fabs(want)), "lane %d reg %d: %g vs %g", l, r,
				      (double)out[l][r], want);
		}
}

static void fill(const Shape *s, float *A, float *B, int seed)
{
	/* small integers and halves: exact in f16 and bf16, so the check is tight */
	for (int i = 0; i < s->m * s->k; i++) {
		A[i] = (float)(((i * 7 + seed) % 11) - 5) * 0.5f;
		B[i] = (float)(((i * 5 + 3 * seed) % 9) - 4);
	}
}

static const char *LOAD_AB = "s_load_dwordx4 s[4:7], s[0:1], 0x0\n"
			     "s_load_dwordx2 s[8:9], s[0:1], 0x10\n"
			     "v_and_b32 v0, 0x3ff, v0\n"
			     "v_lshlrev_b32 v1, 3, v0\n"
			     "s_waitcnt lgkmcnt(0)\n"
			     "global_load_dwordx2 v[2:3], v1, s[4:5]\n"
			     "global_load_dwordx2 v[4:5], v1, s[6:7]\n"
			     "v_lshlrev_b32 v1, 6, v0\n"
			     "s_waitcnt vmcnt(0)\n";

START_TEST(mfma_16x16x16_f16_vgpr)
{
	Shape s = {16, 16, false};
	float A[256], B[256], out[64][16];
	uint32_t pa[64][2], pb[64][2];
	fill(&s, A, B, 1);
	pack(&s, A, B, pa, pb);
	char body[2048];
	snprintf(body, sizeof body, "%sv_mfma_f32_16x16x16_f16 v[8:11], v[2:3], v[4:5], 0\n"
				    "s_nop 7\n"
				    "global_store_dwordx4 v1, v[8:11], s[8:9]", LOAD_AB);
	Harness h;
	h_init(&h, body);
	h_buffer(&h, pa, sizeof pa, 0, false);
	h_buffer(&h, pb, sizeof pb, 8, false);
	h_buffer(&h, out, sizeof out, 16, true);
	ck_assert_int_eq(h_run(&h), 0);
	check(&s, A, B, 0.0f, (const float (*)[16])out, 4);
	h_free(&h);
}
END_TEST

START_TEST(mfma_32x32x8_bf16_agpr)
{
	Shape s = {32, 8, true};
	float A[256], B[256], out[64][16];
	uint32_t pa[64][2], pb[64][2];
	fill(&s, A, B, 2);
	pack(&s, A, B, pa, pb);
	Buf b = {0};
	buf_puts(&b, LOAD_AB);
	buf_puts(&b, "v_mov_b32 v6, 1.0\n");
	for (int r = 0; r < 16; r++)
		buf_printf(&b, "v_accvgpr_write_b32 a%d, v6\n", r);
	buf_puts(&b, "v_mfma_f32_32x32x8_bf16 a[0:15], v[2:3], v[4:5], a[0:15]\ns_nop 15\n");
	for (int r = 0; r < 16; r++)
		buf_printf(&b, "v_accvgpr_read_b32 v%d, a%d\n", 8 + r, r);
	buf_puts(&b, "global_store_dwordx4 v1, v[8:11], s[8:9]\n"
		     "global_store_dwordx4 v1, v[12:15], s[8:9] offset:16\n"
		     "global_store_dwordx4 v1, v[16:19], s[8:9] offset:32\n"
		     "global_store_dwordx4 v1, v[20:23], s[8:9] offset:48");
	Harness h;
	h_init(&h, buf_cstr(&b));
	buf_free(&b);
	h_buffer(&h, pa, sizeof pa, 0, false);
	h_buffer(&h, pb, sizeof pb, 8, false);
	h_buffer(&h, out, sizeof out, 16, true);
	ck_assert_int_eq(h_run(&h), 0);
	check(&s, A, B, 1.0f, (const float (*)[16])out, 16);
	h_free(&h);
}
END_TEST

/* 32x32x8 f16 with A and B moved through AGPRs (acc bits on A/B), C in
 * VGPRs accumulated twice: D = A*B + (A*B + 0). */
START_TEST(mfma_32x32x8_f16_chain_agpr_ab)
{
	Shape s = {32, 8, false};
	float A[256], B[256], out[64][16];
	uint32_t pa[64][2], pb[64][2];
	fill(&s, A, B, 3);
	pack(&s, A, B, pa, pb);
	char body[2048];
	snprintf(body, sizeof body, "%s"
				    "v_accvgpr_write_b32 a0, v2\nv_accvgpr_write_b32 a1, v3\n"
				    "v_accvgpr_write_b32 a2, v4\nv_accvgpr_write_b32 a3, v5\n"
				    "v_accvgpr_mov_b32 a4, a2\nv_accvgpr_mov_b32 a5, a3\n"
				    "v_mfma_f32_32x32x8_f16 v[32:47], a[0:1], a[4:5], 0\n"
				    "s_nop 15\n"
				    "v_mfma_f32_32x32x8_f16 v[32:47], v[2:3], v[4:5], v[32:47]\n"
				    "s_nop 15\n"
				    "global_store_dwordx4 v1, v[32:35], s[8:9]\n"
				    "global_store_dwordx4 v1, v[36:39], s[8:9] offset:16\n"
				    "global_store_dwordx4 v1, v[40:43], s[8:9] offset:32\n"
				    "global_store_dwordx4 v1, v[44:47], s[8:9] offset:48", LOAD_AB);
	Harness h;
	h_init(&h, body);
	h_buffer(&h, pa, sizeof pa, 0, false);
	h_buffer(&h, pb, sizeof pb, 8, false);
	h_buffer(&h, out, sizeof out, 16, true);
	ck_assert_int_eq(h_run(&h), 0);
	for (int l = 0; l < 64; l++)
		for (int r = 0; r < 16; r++)
			out[l][r] *= 0.5f; /* two identical products accumulated */
	check(&s, A, B, 0.0f, (const float (*)[16])out, 16);
	h_free(&h);
}
END_TEST

/* 8-bit inputs: K = 32 (16x16) with 8 elements per lane in two registers,
 * k = 8*floor(l/16) + 4*reg + byte. Values are given as (byte, value) pairs
 * from the format definitions: i8 two's complement; gfx942 fp8 = E4M3 with
 * bias 8 and bf8 = E5M2 with bias 16 (the CDNA3 ISA guide's FP8/BF8 formats). */
typedef struct {
	uint8_t byte;
	float val;
} B8;
static const B8 I8V[] = {{0x01, 1}, {0xff, -1}, {0x05, 5}, {0xf9, -7}, {0x00, 0}, {0x7f, 127}, {0x80, -128}};
static const B8 FP8V[] = {{0x40, 1.0f}, {0x44, 1.5f}, {0x48, 2.0f}, {0x38, 0.5f}, {0xc0, -1.0f}, {0x00, 0.0f}, {0x01, 0x1p-10f}};
static const B8 BF8V[] = {{0x40, 1.0f}, {0x42, 1.5f}, {0x44, 2.0f}, {0x3c, 0.5f}, {0xc2, -1.5f}, {0x00, 0.0f}, {0x01, 0x1p-17f}};

static void run_8bit(const char *insn, const B8 *ta, int na, const B8 *tb, int nb, bool integer)
{
	enum { M = 16, K = 32 };
	float A[M][K], B[K][M];
	uint32_t pa[64][2] = {{0}}, pb[64][2] = {{0}};
	for (int l = 0; l < 64; l++)
		for (int e = 0; e < 8; e++) {
			int i = l % M, k = 8 * (l / M) + e;
			const B8 *x = &ta[(i * 3 + k * 5) % na], *y = &tb[(i * 7 + k) % nb];
			A[i][k] = x->val, B[k][i] = y->val;
			pa[l][e / 4] |= (uint32_t)x->byte << (8 * (e % 4));
			pb[l][e / 4] |= (uint32_t)y->byte << (8 * (e % 4));
		}
	char body[2048];
	snprintf(body, sizeof body, "%s%s a[0:3], v[2:3], v[4:5], 0\ns_nop 7\n"
				    "v_accvgpr_read_b32 v8, a0\nv_accvgpr_read_b32 v9, a1\n"
				    "v_accvgpr_read_b32 v10, a2\nv_accvgpr_read_b32 v11, a3\n"
				    "global_store_dwordx4 v1, v[8:11], s[8:9]", LOAD_AB, insn);
	Harness h;
	h_init(&h, body);
	uint32_t out[64][16];
	h_buffer(&h, pa, sizeof pa, 0, false);
	h_buffer(&h, pb, sizeof pb, 8, false);
	h_buffer(&h, out, sizeof out, 16, true);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	for (int l = 0; l < 64; l++)
		for (int r = 0; r < 4; r++) {
			int i = d_row(M, l, r), j = l % M;
			double want = 0;
			for (int k = 0; k < K; k++)
				want += (double)A[i][k] * B[k][j];
			if (integer)
				ck_assert_int_eq((int32_t)out[l][r], (int32_t)want);
			else {
				float f;
				memcpy(&f, &out[l][r], 4);
				ck_assert_msg(fabs(f - want) <= 1e-6 * (1 + fabs(want)), "%s lane %d reg %d: %g vs %g", insn, l, r,
					      (double)f, want);
			}
		}
	h_free(&h);
}

START_TEST(mfma_16x16x32_i8)
{
	run_8bit("v_mfma_i32_16x16x32_i8", I8V, 7, I8V, 7, true);
}
END_TEST

START_TEST(mfma_16x16x32_fp8_bf8)
{
	run_8bit("v_mfma_f32_16x16x32_fp8_fp8", FP8V, 7, FP8V, 7, false);
	run_8bit("v_mfma_f32_16x16x32_fp8_bf8", FP8V, 7, BF8V, 7, false);
	run_8bit("v_mfma_f32_16x16x32_bf8_bf8", BF8V, 7, BF8V, 7, false);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("emu_mfma");
	TCase *tc = tcase_create("mfma");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, mfma_16x16x16_f16_vgpr);
	tcase_add_test(tc, mfma_32x32x8_bf16_agpr);
	tcase_add_test(tc, mfma_32x32x8_f16_chain_agpr_ab);
	tcase_add_test(tc, mfma_16x16x32_i8);
	tcase_add_test(tc, mfma_16x16x32_fp8_bf8);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
