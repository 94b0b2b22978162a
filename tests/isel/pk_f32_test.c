/* pk_f32_test.c — packed f32 arithmetic in loops (isel/pk_f32.c).
 *
 * Wave's vanilla attention's loop scales, masks and shifts its scores and
 * rescales its accumulator with v_pk_add_f32 / v_pk_mul_f32 (the scores and
 * the accumulator are MFMA tuples), and sums each row's exps as a tree of
 * v_pk_add_f32: before, 68 v_add_f32, 66 v_mul_f32 and 34 v_sub_f32 a trip
 * at Wave's K8 16x16x32 shapes (and 34 adds and muls of exp2's denormal
 * rescaling), now at most 8, 2 and 2 (and those), with the pairs of
 * a repeated value made once per op (the loop-invariant ones before the
 * loop); the scores plus the folded mask's +0 times the positive scale is
 * one v_pk_fma_f32 (fma(x, c, +0) == (x + 0) * c exactly when c's sign
 * bit is clear), not with a negative scale. The same arithmetic outside a
 * loop that holds an mma (a GEMM's bias epilogue, a loop of reads) keeps
 * its v_add_f32. The kernels pass on the emulator on both targets, gfx90a
 * in the strict modes (the pairs' registers, the tuples written a pair at
 * a time). */
#include <stdlib.h>
#include <string.h>

#include "../test.h"

static int count(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

/* The text of the loop that ends in the last backward branch of as (as is
 * changed). */
static char *loop_text(char *as)
{
	char *br = NULL;
	for (char *p = strstr(as, "s_cbranch_scc1 .LBB_"); p; p = strstr(p + 1, "s_cbranch_scc1 .LBB_"))
		br = p;
	ck_assert_ptr_nonnull(br);
	char label[32], def[40];
	ck_assert(sscanf(br, "s_cbranch_scc1 %30s", label) == 1);
	snprintf(def, sizeof def, "\n%s:", label);
	char *top = strstr(as, def);
	ck_assert_ptr_nonnull(top);
	char *end = strchr(br, '\n');
	if (end)
		*end = 0;
	return top;
}

START_TEST(attention_loop_packed)
{
	CmdResult r = test_wavecc("compile tests/driver/wave/vanilla_attention_16x16x32_k8.json -D B=8 -D M=4096 "
				  "-D K2=4096 -D N=128 %s -S -o -",
		_i ? "--mcpu gfx90a" : "");
	ck_assert_msg(r.status == 0, "%s", r.err);
	char *loop = loop_text(r.out);
	/* the scores plus the folded mask's +0, times the scale: one fma */
	ck_assert_int_ge(count(loop, "v_pk_fma_f32"), 16);
	ck_assert_int_ge(count(loop, "v_pk_mul_f32"), 16);
	ck_assert_int_ge(count(loop, "v_pk_add_f32"), 24);
	/* 34 of each for exp2's denormal rescaling (no preserve-sign) */
	ck_assert_int_le(count(loop, "v_add_f32 "), 34 + 8);
	ck_assert_int_le(count(loop, "v_mul_f32 "), 34 + 2);
	ck_assert_int_le(count(loop, "v_sub_f32 "), 2);
	/* the pairs of the scale and of the zero mask: made before the loop */
	ck_assert_int_le(count(loop, "v_mov_b32"), 8);
	cmd_result_free(&r);
}
END_TEST

/* (x + 0) * c is fma(x, c, +0) only for c with its sign bit clear: with
 * c < 0, x = -0 gives -0 one way and +0 the other. */
START_TEST(negative_scale_keeps_the_add)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/tests/driver/wave/vanilla_attention_16x16x32_k8.json", test_root());
	size_t n;
	char *src = read_file(path, &n);
	ck_assert_ptr_nonnull(src);
	const char *k = "\"value\": 0.18033688011112042";
	char *at = strstr(src, k);
	ck_assert_ptr_nonnull(at);
	const char *dir = test_tmpdir("pk_f32");
	char out[4200];
	snprintf(out, sizeof out, "%s/negative_scale.json", dir);
	FILE *f = fopen(out, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%.*s\"value\": -0.18033688011112042%s", (int)(at - src), src, at + strlen(k));
	fclose(f);
	free(src);
	CmdResult r = test_wavecc("compile %s -S -o -", out);
	ck_assert_msg(r.status == 0, "%s", r.err);
	char *loop = loop_text(r.out);
	ck_assert_int_eq(count(loop, "v_pk_fma_f32"), 0);
	ck_assert_int_ge(count(loop, "v_pk_mul_f32"), 16);
	cmd_result_free(&r);
	r = test_wavecc("run %s -D B=2 --atol 1e-3 --rtol 1e-3", out);
	ck_assert_msg(r.status == 0 && strstr(r.out, "PASS"), "%s%s", r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* Outside loops with an mma nothing is packed: a GEMM's bias epilogue, and
 * a loop multiplying two reads loaded as dword pairs (tuples too). */
START_TEST(epilogue_unpacked)
{
	static const char *const files[] = {"gemm_cast_bias.json", "dyn_offset_loop_dvm.json"};
	for (int i = 0; i < 2; i++) {
		CmdResult r = test_wavecc("compile tests/driver/data/%s -S -o -", files[i]);
		ck_assert_msg(r.status == 0, "%s", r.err);
		ck_assert_int_eq(count(r.out, "v_pk_add_f32"), 0);
		ck_assert_int_eq(count(r.out, "v_pk_mul_f32"), 0);
		if (i) /* its two products a trip, one VOP2 each */
			ck_assert_int_ge(count(r.out, "v_mul_f32"), 2);
		cmd_result_free(&r);
	}
}
END_TEST

static void passes(const char *args)
{
	CmdResult r = test_wavecc("run %s", args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "PASS") && !strstr(r.out, "FAIL"), "run %s:\n%s%s", args, r.out,
		r.err);
	cmd_result_free(&r);
}

#define STRICT "--mcpu gfx90a --wave-order random --wg-order random --fill garbage --memory late --races --canary"

START_TEST(packed_kernels_pass)
{
	passes("tests/driver/wave/vanilla_attention_16x16x32_k8.json -D B=2 --atol 1e-3 --rtol 1e-3");
	passes("tests/driver/wave/vanilla_attention_32x32x8.json -D B=2 --atol 1e-3 --rtol 1e-3 " STRICT);
	passes("tests/driver/wave/vanilla_attention_softcap_16x16x16.json -D B=2 --atol 1e-3 --rtol 1e-3 " STRICT);
	passes("tests/driver/wave/toy_online_softmax.json -D M=111 -D N=813 " STRICT);
	passes("examples/attention.json");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("isel/pk_f32");
	TCase *t = tcase_create("pk_f32");
	tcase_set_timeout(t, 120);
	tcase_add_loop_test(t, attention_loop_packed, 0, 2);
	tcase_add_test(t, negative_scale_keeps_the_add);
	tcase_add_test(t, epilogue_unpacked);
	tcase_add_test(t, packed_kernels_pass);
	suite_add_tcase(s, t);
	return run_suite(s);
}
