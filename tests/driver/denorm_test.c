/* denorm_test.c — the kernel option denorm_fp_math_f32 (Wave's compile
 * option; frontend/load.c, isel/elt.c, isel/math.c, interp/exec.c): with
 * "preserve-sign" (every Wave attention test passes it) exp2, exp, log2 and
 * rsqrt are the bare v_exp_f32 / v_log_f32 / v_rsq_f32, whose denormal
 * results and inputs are 0, and the reference interpreter flushes the same
 * way, so the kernels whose values are denormals there pass on both
 * targets; "ieee" (and "dynamic") keep the rescaling; another value is a
 * located error. */
#include <stdlib.h>
#include <string.h>

#include "../test.h"

/* The kernel file FILE (from the repository root) with "options" set to
 * OPTS, in the folder named NAME; returns the path (static storage). */
static const char *file_with_options(const char *name, const char *file, const char *opts)
{
	static char path[1024];
	const char *dir = test_tmpdir(name);
	char cmd[4096];
	snprintf(cmd, sizeof cmd,
		"cd '%s' && sed 's|\"format\": \"wavecc-kernel/1\",|\"format\": \"wavecc-kernel/1\", \"options\": %s,|' "
		"'%s' > '%s/k.json'",
		test_root(), opts, file, dir);
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
	snprintf(path, sizeof path, "%s/k.json", dir);
	return path;
}

/* tests/driver/data/NAME.json with "options" set to OPTS. */
static const char *with_options(const char *name, const char *opts)
{
	char file[512];
	snprintf(file, sizeof file, "tests/driver/data/%s.json", name);
	return file_with_options(name, file, opts);
}

static CmdResult wavecc_on(const char *file, const char *args)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s '%s'", test_root(), test_bin(), args, file);
	return run_cmd(cmd, NULL);
}

/* exp2, exp and log2 whose values are denormals: 0 (or -inf) under
 * preserve-sign in both the kernel and the interpreter. */
static const char *const denormal[] = {"exp2_denormal", "exp_denormal", "log2_denormal"};

START_TEST(flushed_transcendentals_pass)
{
	const char *file = with_options(denormal[_i / 2], "{\"denorm_fp_math_f32\": \"preserve-sign\"}");
	char args[256];
	snprintf(args, sizeof args, "run --mcpu %s --seed %d", _i % 2 ? "gfx90a" : "gfx942", 50 + _i);
	CmdResult r = wavecc_on(file, args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: %s%s", denormal[_i / 2], r.out, r.err);
	cmd_result_free(&r);
	/* the bare instruction: no range compare around it */
	r = wavecc_on(file, "compile -S -o -");
	ck_assert_msg(r.status == 0 && (strstr(r.out, "v_exp_f32") || strstr(r.out, "v_log_f32")), "%s", r.err);
	ck_assert_msg(!strstr(r.out, "v_cmp_gt_f32") && !strstr(r.out, "v_cmp_lt_f32"), "%s: rescaled\n%s",
		denormal[_i / 2], r.out);
	cmd_result_free(&r);
}
END_TEST

/* "ieee" and "dynamic" promise no flushing: the rescaled sequence. */
START_TEST(ieee_keeps_the_rescaling)
{
	const char *mode[] = {"ieee", "dynamic"};
	for (int i = 0; i < 2; i++) {
		char opts[128];
		snprintf(opts, sizeof opts, "{\"denorm_fp_math_f32\": \"%s\"}", mode[i]);
		const char *file = with_options("exp2_denormal", opts);
		CmdResult r = wavecc_on(file, "compile -S -o -");
		ck_assert_msg(r.status == 0 && (strstr(r.out, "v_cmp_gt_f32") || strstr(r.out, "v_cmp_lt_f32")), "%s: %s",
			mode[i], r.err);
		cmd_result_free(&r);
		r = wavecc_on(file, "run --rtol 1e-2");
		ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: %s%s", mode[i], r.out, r.err);
		cmd_result_free(&r);
	}
}
END_TEST

START_TEST(unknown_mode_is_located)
{
	const char *file = with_options("exp2_denormal", "{\"denorm_fp_math_f32\": \"flush\"}");
	CmdResult r = wavecc_on(file, "compile -S -o /dev/null");
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "k.json:2:") && strstr(r.err, "error: options.denorm_fp_math_f32: unknown denormal "
								     "mode 'flush' (ieee, preserve-sign, "
								     "positive-zero or dynamic)"),
		"%s", r.err);
	cmd_result_free(&r);
	file = with_options("exp2_denormal", "{\"denorm_fp_math_f32\": true}");
	r = wavecc_on(file, "compile -S -o /dev/null");
	ck_assert_msg(r.status == 1 && strstr(r.err, "options.denorm_fp_math_f32: expected a string"), "%s", r.err);
	cmd_result_free(&r);
}
END_TEST

/* Wave's vanilla attention as its test compiles it (preserve-sign): the
 * softmax's exp2 is bare, and the kernel matches the interpreter. */
START_TEST(attention_with_flush_passes)
{
	const char *file = file_with_options("denorm_attention", "tests/driver/wave/vanilla_attention_16x16x16.json",
		"{\"denorm_fp_math_f32\": \"preserve-sign\"}");
	CmdResult r = wavecc_on(file, _i ? "run --mcpu gfx90a --atol 1e-3 --rtol 1e-3" : "run --atol 1e-3 --rtol 1e-3");
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s%s", r.out, r.err);
	cmd_result_free(&r);
	r = wavecc_on(file, "compile -S -o -");
	ck_assert_msg(r.status == 0 && strstr(r.out, "v_exp_f32") && !strstr(r.out, "v_cmp_lt_f32"), "%s", r.err);
	cmd_result_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("driver.denorm");
	TCase *t = tcase_create("core");
	tcase_set_timeout(t, 120);
	tcase_add_loop_test(t, flushed_transcendentals_pass, 0, 6);
	tcase_add_test(t, ieee_keeps_the_rescaling);
	tcase_add_test(t, unknown_mode_is_located);
	tcase_add_loop_test(t, attention_with_flush_passes, 0, 2);
	suite_add_tcase(s, t);
	return run_suite(s);
}
