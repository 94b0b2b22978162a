/* asm_test.c — emulator validation with hand-written assembly for what
 * clang-19 does not emit from OpenCL but our compiler will: AGPR moves
 * (v_accvgpr_write/read/mov, global loads and stores with AGPR data, MFMA
 * with C/D in AGPRs), MFMA operand forms (C = inline 0, C/D in VGPRs) and LDS
 * DMA (buffer_load_dword ... lds, with M0 and inst_offset, out-of-range lanes
 * writing zeros). The sources
 * (kernels/agpr.s, kernels/lds_dma.s) are assembled by llvm-mc-19 and linked
 * by ld.lld-19, so these tests depend on neither our assembler driver nor our
 * linker. */
#include <string.h>

#include "validate.h"

static void setup(void)
{
	static const char *const kernels[] = {"agpr", "lds_dma", "mfma_forms", NULL};
	vk_compile("validate_asm", kernels);
}

START_TEST(agpr)
{
	static float in[64], out[64 * 4];
	static double want[64 * 4];
	for (int l = 0; l < 64; l++) {
		in[l] = (float)l * 0.75f - 20.0f;
		want[l * 4] = in[l];           /* v -> a0 -> (mov) a1 -> v */
		want[l * 4 + 1] = in[l];       /* global_load into a2, global_store from a2 */
		want[l * 4 + 2] = 2.0;         /* accvgpr_write of an inline constant */
		want[l * 4 + 3] = 2.0 * in[l] + 32.0; /* MFMA ones x ones (K=16) + C = in, regs 0 and 3 summed */
	}
	VkArg args[] = {{"in", DT_F32, 1, {64}, in, VK_IN}, {"out", DT_F32, 2, {64, 4}, out, VK_OUT}};
	vk_run("agpr.launch.json", NULL, args, ARRAY_LEN(args));
	vk_check_f32("agpr out [64][4] (a0->a1 copy, AGPR load/store, inline const, MFMA acc)", out, want, 64 * 4, 0, 0);
}
END_TEST

START_TEST(lds_dma)
{
	enum { N = 100 };
	static uint32_t src[N], out[64 * 3], want[64 * 3];
	for (int i = 0; i < N; i++)
		src[i] = 0x1000u * (uint32_t)i + 0xabu;
	for (int l = 0; l < 64; l++) {
		want[l * 3] = src[63 - l];                     /* M0 = 0, voffset 4*(63-lane) */
		want[l * 3 + 1] = 127 - l < N ? src[127 - l] : 0; /* offset:256 moves both addresses; past n: 0 */
		want[l * 3 + 2] = src[l];                      /* M0 = 0x200 */
	}
	VkArg args[] = {{"src", DT_U32, 1, {N}, src, VK_IN}, {"out", DT_U32, 2, {64, 3}, out, VK_OUT}};
	vk_run("lds_dma.launch.json", "n=100", args, ARRAY_LEN(args));
	vk_check_u32("lds_dma out [64][3]", out, want, 64 * 3);
}
END_TEST

START_TEST(mfma_forms)
{
	static float out[64 * 16];
	static double want[64 * 16];
	for (int l = 0; l < 64; l++)
		for (int r = 0; r < 4; r++) {
			want[l * 16 + r] = 16.0 * (l % 16);      /* ones x B + 0, D in VGPRs */
			want[l * 16 + 4 + r] = 32.0 * (l % 16);  /* + C from the previous D */
			want[l * 16 + 8 + r] = 16.0 * (l % 16);  /* C = 0, D in AGPRs */
			want[l * 16 + 12 + r] = 16.0 * (l % 16); /* A and B read from AGPRs */
		}
	VkArg args[] = {{"out", DT_F32, 2, {64, 16}, out, VK_OUT}};
	vk_run("mfma_forms.launch.json", NULL, args, ARRAY_LEN(args));
	vk_check_f32("mfma_forms out [64][16] (C = 0 into VGPRs, C = D in VGPRs, C = 0 into AGPRs, A/B from AGPRs)", out,
		     want, 64 * 16, 0, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("validate_asm");
	TCase *tc = tcase_create("asm");
	tcase_add_unchecked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, agpr);
	tcase_add_test(tc, lds_dma);
	tcase_add_test(tc, mfma_forms);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
