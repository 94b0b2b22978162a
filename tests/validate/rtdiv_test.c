/* rtdiv_test.c — emulator validation of the division by a wave-uniform
 * runtime value that wavecc's index expressions use (isel/rtdiv.c): clang-19
 * builds kernels/rtdiv.cl, whose uint division by a kernel argument is the
 * same sequence (reciprocal on the vector unit, v_readfirstlane_b32, the
 * Newton step and a uniform dividend's corrections on the scalar unit,
 * per-lane corrections on the vector unit), for gfx942, gfx942:sramecc- and
 * gfx90a. Each divisor runs once over edge dividends (0, 1, multiples of d
 * and their neighbours, 2^31 - 1, 2^31, 2^32 - 1) and random ones, per lane
 * and uniform (one per workgroup), against C's / and %. Divisor 0 is not
 * run here (undefined in OpenCL C); the compiler's guard for it is the
 * s_cmp_lg_u32 / s_cselect forms the kernel's e ? a : 0 makes clang emit. */
#include <stdio.h>

#include "validate.h"

static const char *const kernels[] = {"rtdiv", NULL};
static void setup_gfx942(void) { vk_compile_arch("validate_rtdiv", kernels, "gfx942"); }
static void setup_noecc(void) { vk_compile_arch("validate_rtdiv_noecc", kernels, "gfx942:sramecc-"); }
static void setup_gfx90a(void) { vk_compile_arch("validate_rtdiv_gfx90a", kernels, "gfx90a"); }

enum { N = 1000, NWG = (N + 63) / 64 };

/* the divisors: the small ones, 2^16 + 1, the largest runtime size 2^31 - 1
 * and (past the sizes' range, for the sequence itself) 2^31, 2^32 - 1 */
static const uint32_t divisors[] = {1, 2, 3, 7, 10, 641, 65537, 12345678, 0x7fffffffu, 0x80000000u, 0xfffffffeu,
	0xffffffffu};

/* dividend i of N: edges first, then random values of every size */
static uint32_t dividend(uint32_t d, int i, VkRng *r)
{
	static const uint32_t fixed[] = {0, 1, 2, 3, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu, 65536, 65537};
	if (i < (int)ARRAY_LEN(fixed))
		return fixed[i];
	i -= (int)ARRAY_LEN(fixed);
	if (i < 60) { /* k * d - 1, k * d, k * d + 1 for k = 1..20 (wrapping) */
		uint32_t k = (uint32_t)(i / 3 + 1);
		return k * d + (uint32_t)(i % 3) - 1u;
	}
	if (i < 80) /* the last multiples of d below 2^32 and their neighbours */
		return (0xffffffffu / d - (uint32_t)(i - 60) / 3) * d + (uint32_t)(i % 3) - 1u;
	uint64_t v = vk_next(r);
	return (uint32_t)(v >> (v & 31)); /* every magnitude */
}

START_TEST(rtdiv)
{
	static uint32_t x[N], ux[NWG], o[N * 3], ou[NWG * 3], want[N * 3], wantu[NWG * 3];
	VkRng r = {31};
	for (size_t k = 0; k < ARRAY_LEN(divisors); k++) {
		uint32_t d = divisors[k], e = k % 2; /* e: the guard's select, both ways */
		for (int i = 0; i < N; i++)
			x[i] = dividend(d, i, &r);
		for (int g = 0; g < NWG; g++)
			ux[g] = x[(g * 37 + 5) % N]; /* edges and random ones on the scalar unit too */
		for (int i = 0; i < N; i++) {
			want[3 * i] = x[i] / d;
			want[3 * i + 1] = x[i] % d;
			want[3 * i + 2] = e ? x[i] : 0;
		}
		for (int g = 0; g < NWG; g++) {
			wantu[3 * g] = ux[g] / d;
			wantu[3 * g + 1] = ux[g] % d;
			wantu[3 * g + 2] = e ? ux[g] : 0;
		}
		VkArg args[] = {
			{"x", DT_U32, 1, {N}, x, VK_IN},
			{"ux", DT_U32, 1, {NWG}, ux, VK_IN},
			{"o", DT_U32, 2, {N, 3}, o, VK_OUT},
			{"ou", DT_U32, 2, {NWG, 3}, ou, VK_OUT},
		};
		char defs[96], what[64];
		snprintf(defs, sizeof defs, "n=%d d=%u e=%u", N, d, e);
		vk_run("rtdiv.launch.json", defs, args, ARRAY_LEN(args));
		snprintf(what, sizeof what, "per lane, d=%u", d);
		vk_check_u32(what, o, want, N * 3);
		snprintf(what, sizeof what, "uniform, d=%u", d);
		vk_check_u32(what, ou, wantu, NWG * 3);
	}
	static const char *const insns[] = {"v_cvt_f32_u32_e32", "v_rcp_iflag_f32_e32", "v_mul_f32_e32",
		"v_cvt_u32_f32_e32", "v_readfirstlane_b32", "s_sub_i32", "s_mul_i32", "s_mul_hi_u32", "s_add_i32",
		"s_cmp_ge_u32", "s_cselect_b32", "v_mul_hi_u32", "v_mul_lo_u32", "v_sub_u32_e32", "v_add_u32_e32",
		"v_cmp_le_u32_e32", "v_cndmask_b32_e32", "v_subrev_u32_e32", "s_cmp_lg_u32", "s_cselect_b64", NULL};
	vk_expect_insns("rtdiv", insns);
}
END_TEST

static TCase *cases(const char *arch, void (*setup)(void))
{
	TCase *tc = tcase_create(arch);
	tcase_add_unchecked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, rtdiv);
	return tc;
}

int main(void)
{
	Suite *s = suite_create("validate_rtdiv");
	suite_add_tcase(s, cases("gfx942", setup_gfx942));
	suite_add_tcase(s, cases("gfx942:sramecc-", setup_noecc));
	suite_add_tcase(s, cases("gfx90a", setup_gfx90a));
	return run_suite(s);
}
