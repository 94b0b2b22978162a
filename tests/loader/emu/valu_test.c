/* valu_test.c — table-driven VALU checks: each case is an assembly snippet
 * computing v4 from the per-lane inputs (v2, v3: integers; v8, v9: floats)
 * and a C reference written from the ISA's description of the instruction.
 * All cases run in one kernel (one llvm-mc-19 call); case i stores its row
 * at out + 256*i. Also: wide scalar loads that run past their region. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../../util/dtype.h"
#include "emu_harness.h"

typedef struct {
	uint32_t a, b; /* integer inputs */
	float fa, fb;  /* float inputs */
	int lane;
} In;

static uint32_t U(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static uint32_t r_cndmask_neg(In x) { return U(x.fa > x.fb ? x.fa : -x.fa); }
static uint32_t r_mad_legacy_u16(In x) { return (x.a * x.b + x.a) & 0xffff; }
static uint32_t r_bfe_u32(In x) { return (x.a >> 5) & 0x7f; }
static uint32_t r_bfe_i32(In x) { return (uint32_t)((int32_t)(x.a << (32 - 12)) >> (32 - 9)); }
/* A field past bit 31 reads the sign bit's copies: take it from the value
 * sign-extended to 64 bits. */
static uint32_t r_bfe_i32_wide(In x)
{
	uint64_t field = ((uint64_t)(int64_t)(int32_t)x.a >> 29) & 0x1ffff;
	return (uint32_t)(field & 0x10000 ? field | ~0x1ffffull : field);
}
static uint32_t r_alignbit(In x) { return (uint32_t)((((uint64_t)x.a << 32) | x.b) >> 7); }
static uint32_t r_perm(In x)
{
	/* selector bytes 0x01, 0x06, 0x0c (zero), 0x0d (0xff); bytes 0-3 come from src1 */
	uint64_t v = (uint64_t)x.a << 32 | x.b;
	return (uint32_t)((v >> 8) & 0xff) | (uint32_t)((v >> 48) & 0xff) << 8 | 0u << 16 | 0xffu << 24;
}
static uint32_t r_mul_hi(In x) { return (uint32_t)(((uint64_t)x.a * x.b) >> 32); }
static uint32_t r_mul_lo(In x) { return x.a * x.b; }
static uint32_t r_lshl_add(In x) { return (x.a << 3) + x.b; }
static uint32_t r_add3(In x) { return x.a + x.b + 7; }
static uint32_t r_xad(In x) { return (x.a ^ x.b) + 1; }
static uint32_t r_lshl_or(In x) { return (x.a << 4) | x.b; }
static uint32_t r_and_or(In x) { return (x.a & x.b) | 0x10; }
static uint32_t r_ffbh(In x) { return x.a ? (uint32_t)__builtin_clz(x.a) : 0xffffffffu; }
static uint32_t r_bfrev(In x) { uint32_t o = 0; for (int i = 0; i < 32; i++) o |= ((x.a >> i) & 1u) << (31 - i); return o; }
static uint32_t r_bcnt(In x) { return (uint32_t)__builtin_popcount(x.a) + 5; }
static uint32_t r_mbcnt(In x) { return (uint32_t)x.lane; }
static uint32_t r_pk_fma_f16(In x)
{
	uint32_t lo = dtype_f32_to_f16((float)((double)dtype_f16_to_f32((uint16_t)x.a) * dtype_f16_to_f32((uint16_t)x.b) + dtype_f16_to_f32((uint16_t)x.a)));
	uint32_t hi = dtype_f32_to_f16((float)((double)dtype_f16_to_f32((uint16_t)(x.a >> 16)) * dtype_f16_to_f32((uint16_t)(x.b >> 16)) +
					 dtype_f16_to_f32((uint16_t)(x.a >> 16))));
	return lo | hi << 16;
}
static uint32_t r_pk_mul_f32_hi(In x) { return U(x.fb * x.fb); }
static uint32_t r_sdwa(In x) { return (((x.a >> 8) & 0xff) + (x.b & 0xffff)) << 16 & 0xffff0000u; }
static uint32_t r_ubyte2(In x) { return U((float)((x.a >> 16) & 0xff)); }
static uint32_t r_med3(In x) { return U(fmaxf(fminf(x.fa, x.fb), fminf(fmaxf(x.fa, x.fb), 1.0f))); }
static uint32_t r_fma_mix(In x) { return U(fmaf(dtype_f16_to_f32((uint16_t)x.a), dtype_f16_to_f32((uint16_t)(x.b >> 16)), x.fa)); }
static uint32_t r_flr(In x) { return isnan(x.fa) ? 0 : isinf(x.fa) ? (x.fa < 0 ? 0x80000000u : 0x7fffffffu) : (uint32_t)(int32_t)floorf(x.fa); }
static uint32_t r_ldexp(In x) { return U(ldexpf(x.fa, 3)); }
static uint32_t r_f64(In x) { return U((float)((double)x.fa * 2.0 + 0.5)); }
static uint32_t r_lshl_b64(In x) { return (uint32_t)(((((uint64_t)x.b << 32) | x.a) << 4) >> 32); }
static uint32_t r_max_i16(In x) { return (uint32_t)(uint16_t)((int16_t)x.a > (int16_t)x.b ? (int16_t)x.a : (int16_t)x.b); }
static uint32_t r_readlane(In x) { (void)x; return 0; } /* patched below: a[17] */
static uint32_t r_cmp_class(In x) { return isnan(x.fa) || isinf(x.fa) ? 1u : 0u; }
static uint32_t r_zero(In x) { (void)x; return 0; } /* legacy: 0 * inf/nan = 0 */
static uint32_t r_mul_legacy(In x) { return U(x.fa == 0.0f || x.fb == 0.0f ? 0.0f : x.fa * x.fb); }
static uint32_t r_subrev_co(In x) { return (x.b - x.a) + (x.a > x.b ? 64u : 0u); }

typedef struct {
	const char *name, *code;
	uint32_t (*ref)(In);
} Case;

static const Case cases[] = {
	{"cndmask_neg", "v_cmp_gt_f32 vcc, v8, v9\nv_cndmask_b32_e64 v4, -v8, v8, vcc", r_cndmask_neg},
	{"mad_legacy_u16", "v_mad_legacy_u16 v4, v2, v3, v2", r_mad_legacy_u16},
	{"bfe_u32", "v_bfe_u32 v4, v2, 5, 7", r_bfe_u32},
	{"bfe_i32", "v_bfe_i32 v4, v2, 3, 9", r_bfe_i32},
	{"bfe_i32_wide", "v_mov_b32 v5, 17\nv_bfe_i32 v4, v2, 29, v5", r_bfe_i32_wide},
	{"alignbit", "v_alignbit_b32 v4, v2, v3, 7", r_alignbit},
	{"perm", "s_mov_b32 s20, 0x0d0c0601\nv_perm_b32 v4, v2, v3, s20", r_perm},
	{"mul_hi_u32", "v_mul_hi_u32 v4, v2, v3", r_mul_hi},
	{"mad_u64_u32", "v_mad_u64_u32 v[10:11], s[12:13], v2, v3, 0\nv_mov_b32 v4, v10", r_mul_lo},
	{"lshl_add", "v_lshl_add_u32 v4, v2, 3, v3", r_lshl_add},
	{"add3", "v_add3_u32 v4, v2, v3, 7", r_add3},
	{"xad", "v_xad_u32 v4, v2, v3, 1", r_xad},
	{"lshl_or", "v_lshl_or_b32 v4, v2, 4, v3", r_lshl_or},
	{"and_or", "v_and_or_b32 v4, v2, v3, 16", r_and_or},
	{"ffbh", "v_ffbh_u32 v4, v2", r_ffbh},
	{"bfrev", "v_bfrev_b32 v4, v2", r_bfrev},
	{"bcnt", "v_bcnt_u32_b32 v4, v2, 5", r_bcnt},
	{"mbcnt", "v_mbcnt_lo_u32_b32 v4, -1, 0\nv_mbcnt_hi_u32_b32 v4, -1, v4", r_mbcnt},
	{"pk_fma_f16", "v_pk_fma_f16 v4, v2, v3, v2", r_pk_fma_f16},
	{"pk_mul_f32", "v_pk_mul_f32 v[10:11], v[8:9], v[8:9]\nv_mov_b32 v4, v11", r_pk_mul_f32_hi},
	{"sdwa", "v_add_u32_sdwa v4, v2, v3 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:WORD_0", r_sdwa},
	{"ubyte2", "v_cvt_f32_ubyte2 v4, v2", r_ubyte2},
	{"med3", "v_med3_f32 v4, v8, v9, 1.0", r_med3},
	{"fma_mix", "v_fma_mix_f32 v4, v2, v3, v8 op_sel:[0,1,0] op_sel_hi:[1,1,0]", r_fma_mix},
	{"cvt_flr", "v_cvt_flr_i32_f32 v4, v8", r_flr},
	{"ldexp", "v_ldexp_f32 v4, v8, 3", r_ldexp},
	{"f64", "v_cvt_f64_f32 v[10:11], v8\nv_fma_f64 v[10:11], v[10:11], 2.0, 0.5\nv_cvt_f32_f64 v4, v[10:11]", r_f64},
	{"lshlrev_b64", "v_lshlrev_b64 v[10:11], 4, v[2:3]\nv_mov_b32 v4, v11", r_lshl_b64},
	{"max_i16", "v_max_i16 v4, v2, v3", r_max_i16},
	{"readlane", "v_readlane_b32 s20, v2, 17\nv_mov_b32 v4, s20", r_readlane},
	{"cmp_class", "v_mov_b32 v5, 0x207\nv_cmp_class_f32 vcc, v8, v5\nv_cndmask_b32 v4, 0, 1, vcc", r_cmp_class},
	{"mul_legacy", "v_mul_legacy_f32 v4, v8, v9", r_mul_legacy},
	{"mul_legacy_zero", "v_mul_legacy_f32 v4, v8, 0", r_zero},
	{"subrev_co", "v_subrev_co_u32 v4, s[14:15], v2, v3\nv_cndmask_b32_e64 v5, 0, 64, s[14:15]\nv_add_u32 v4, v4, v5", r_subrev_co},
};
enum { NCASES = sizeof cases / sizeof cases[0] };

START_TEST(valu_cases)
{
	Buf b = {0};
	buf_puts(&b, "s_load_dwordx4 s[4:7], s[0:1], 0x0\n"
		     "s_load_dwordx2 s[8:9], s[0:1], 0x10\n"
		     "v_and_b32 v0, 0x3ff, v0\n"
		     "v_lshlrev_b32 v1, 2, v0\n"
		     "s_waitcnt lgkmcnt(0)\n"
		     "global_load_dword v2, v1, s[4:5]\n"
		     "global_load_dword v3, v1, s[6:7]\n"
		     "v_lshlrev_b32 v12, 3, v0\n"
		     "global_load_dwordx2 v[8:9], v12, s[8:9]\n"
		     "s_load_dwordx2 s[6:7], s[0:1], 0x18\n"
		     "s_waitcnt vmcnt(0) lgkmcnt(0)\n");
	for (int i = 0; i < NCASES; i++)
		buf_printf(&b, "%s\nglobal_store_dword v1, v4, s[6:7]\ns_add_u32 s6, s6, 256\ns_addc_u32 s7, s7, 0\n",
			   cases[i].code);
	Harness h;
	h_init(&h, buf_cstr(&b));
	buf_free(&b);
	uint32_t ia[64], ib[64], out[NCASES][64];
	float fab[64][2];
	uint32_t seed = 12345;
	for (int l = 0; l < 64; l++) {
		seed = seed * 1664525u + 1013904223u;
		ia[l] = seed;
		seed = seed * 1664525u + 1013904223u;
		ib[l] = l < 4 ? (uint32_t)l : seed;
		fab[l][0] = ((float)((int)(ia[l] % 2001) - 1000)) / 37.0f;
		fab[l][1] = ((float)((int)(ib[l] % 1001) - 500)) / 13.0f;
	}
	ia[5] = 0;
	ib[6] = ia[6];
	fab[7][0] = NAN;
	fab[8][0] = -INFINITY;
	fab[9][0] = fab[9][1];
	h_buffer(&h, ia, sizeof ia, 0, false);
	h_buffer(&h, ib, sizeof ib, 8, false);
	h_buffer(&h, fab, sizeof fab, 16, false);
	h_buffer(&h, out, sizeof out, 24, true);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	int bad = 0;
	for (int i = 0; i < NCASES; i++)
		for (int l = 0; l < 64; l++) {
			In x = {ia[l], ib[l], fab[l][0], fab[l][1], l};
			uint32_t want = cases[i].ref == r_readlane ? ia[17] : cases[i].ref(x);
			if (out[i][l] != want && bad++ < 10)
				fprintf(stderr, "case %s lane %d: got 0x%08x want 0x%08x\n", cases[i].name, l, out[i][l], want);
		}
	ck_assert_int_eq(bad, 0);
	h_free(&h);
}
END_TEST

/* s_load_dwordx8 whose last dwords lie past the kernarg region: the part
 * inside is read, the rest is 0; a load wholly outside is an error. */
START_TEST(smem_overrun)
{
	Harness h;
	h_init(&h, "s_load_dwordx8 s[8:15], s[0:1], 0xf0\n"
		   "s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
		   "s_waitcnt lgkmcnt(0)\n"
		   "v_mov_b32 v0, 0\n"
		   "v_mov_b32 v2, s11\nv_mov_b32 v3, s12\n"
		   "global_store_dwordx2 v0, v[2:3], s[4:5]");
	uint32_t out[2] = {7, 7};
	h_buffer(&h, out, sizeof out, 0, true);
	h_arg32(&h, 0xfc, 0xabcd);
	ck_assert_int_eq(h_run(&h), 0);
	ck_assert_uint_eq(out[0], 0xabcd);
	ck_assert_uint_eq(out[1], 0);
	h_free(&h);
	h_init(&h, "s_load_dword s8, s[0:1], 0x1000");
	ck_assert_int_eq(h_run(&h), -1);
	ck_assert_ptr_nonnull(strstr(h.err, "outside any mapped region"));
	h_free(&h);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("emu_valu");
	TCase *tc = tcase_create("valu");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, valu_cases);
	tcase_add_test(tc, smem_overrun);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
