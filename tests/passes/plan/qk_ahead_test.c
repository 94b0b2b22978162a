/* qk_ahead_test.c — attention's Q·Kᵀ a trip ahead (passes/plan/qk_ahead.c,
 * the kernel option "qk_ahead"): the plan names the moved MMA on the loop's
 * line only where asked and where the body is the plain chained pair (a
 * mapped K read is left alone), and the rewritten loops run on the emulator
 * against the interpreter: K2 a multiple of its tile, not one (causal's
 * split main loop and masked tail; non-causal, masked), causal (cut and split at the diagonal), the
 * sliding window, ALiBi, gfx942 and gfx90a in the emulator's strict modes. */
#include <stdlib.h>
#include <string.h>

#include "../../test.h"

#define STRICT "--mcpu gfx90a --wave-order random --wg-order random --fill garbage --memory late --races --canary"

/* tests/driver/wave/NAME.json with "options": {"qk_ahead": on}, in the
 * test's scratch folder. */
static const char *with_option(const char *name, bool on)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/tests/driver/wave/%s.json", test_root(), name);
	size_t n;
	char *s = read_file(path, &n);
	ck_assert_ptr_nonnull(s);
	ck_assert_msg(!strstr(s, "\"options\""), "%s has options", name);
	char *brace = strchr(s, '{');
	ck_assert_ptr_nonnull(brace);
	static const char *dir;
	if (!dir)
		dir = test_tmpdir("qk_ahead");
	snprintf(path, sizeof path, "%s/%s_%s.json", dir, name, on ? "on" : "off");
	FILE *o = fopen(path, "w");
	ck_assert_ptr_nonnull(o);
	fprintf(o, "%.*s{\"options\": {\"qk_ahead\": %s},%s", (int)(brace - s), s, on ? "true" : "false", brace + 1);
	fclose(o);
	free(s);
	return intern(path);
}

static const char *asked(const char *name) { return with_option(name, true); }

/* The loop line of `--dump-plan` for the graph at path with args. */
static char *loop_line(const char *path, const char *args)
{
	CmdResult r = test_wavecc("compile %s %s --dump-plan -S -o -", path, args);
	ck_assert_msg(r.status == 0, "compile %s %s: %s", path, args, r.err);
	const char *p = strstr(r.err, "loop repeat over ");
	ck_assert_msg(p, "no loop line in: %s", r.err);
	const char *e = strchr(p, '\n');
	char *s = strndup(p, (size_t)(e - p));
	cmd_result_free(&r);
	return s;
}

static void ahead(const char *path, const char *args, bool want)
{
	char *got = loop_line(path, args);
	ck_assert_msg(!!strstr(got, "; inner_acc a trip ahead") == want, "%s %s: %s", path, args, got);
	free(got);
}

START_TEST(plan_names_the_moved_mma)
{
	ahead(asked("vanilla_attention_16x16x32_k8"), "", true);
	ahead(with_option("vanilla_attention_16x16x32_k8", false), "", false); /* declined */
	ahead(asked("vanilla_attention_causal_16x16x16"), "-D M=512 -D K2=512", true);
	/* still split at the diagonal, and split for an unaligned K2 */
	const char *causal = asked("vanilla_attention_causal_16x16x16");
	char *got = loop_line(causal, "-D B=1 -D M=512 -D K2=512");
	ck_assert_msg(strstr(got, "split at the diagonal"), "%s", got);
	free(got);
	got = loop_line(causal, "-D B=1 -D M=300 -D K2=300");
	ck_assert_msg(strstr(got, "split at 2 (4 whole tiles); inner_acc a trip ahead"), "%s", got);
	free(got);
	/* BHSD scales Q in the body (its other operand is no read): left alone */
	ahead(asked("bhsd_attention_causal_16x16x16"), "", false);
}
END_TEST

/* Not asked either way: qk_ahead.c's rule (a reduction of at most 64 a
 * trip, at most 16 rows a wave, the same constant trips in every
 * workgroup, an exp between the two MMAs). */
START_TEST(rule_decides_unasked_loops)
{
	const char *nc = "tests/driver/wave/vanilla_attention_16x16x32_k8.json";
	const char *causal = "tests/driver/wave/vanilla_attention_causal_16x16x16.json";
	ahead(nc, "-D BLOCK_M=64", true);                       /* head dim 64, 16 rows a wave */
	ahead(nc, "-D BLOCK_M=64 -D K1=32", true);
	ahead(nc, "-D BLOCK_M=64 -D K1=128", false);            /* head dim 128 */
	ahead(nc, "", false);                                   /* 128-row tiles: 32 rows a wave */
	ahead(causal, "-D BLOCK_M=64 -D M=512 -D K2=512", false); /* cut at each workgroup's diagonal */
	/* no softmax between the MMAs: left alone unless asked */
	char *got = loop_line("tests/driver/wave/chained_gemm_16x16x16.json", "");
	ck_assert_msg(!strstr(got, "a trip ahead"), "%s", got);
	free(got);
	got = loop_line(asked("chained_gemm_16x16x16"), "");
	ck_assert_msg(strstr(got, "; kq_reg a trip ahead"), "%s", got);
	free(got);
}
END_TEST

static void passes(const char *path, const char *args)
{
	CmdResult r = test_wavecc("run %s %s", path, args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "PASS"), "run %s %s:\n%s%s", path, args, r.out, r.err);
	ck_assert_msg(!strstr(r.out, "FAIL"), "run %s %s:\n%s", path, args, r.out);
	cmd_result_free(&r);
}

START_TEST(rewritten_loops_pass)
{
	const char *nc = asked("vanilla_attention_16x16x32_k8"), *causal = asked("vanilla_attention_causal_16x16x16");
	passes(nc, "-D B=1 -D M=256 -D K2=512");
	passes(nc, "-D B=1 -D M=256 -D K2=200"); /* main loop and masked tail */
	passes(nc, "-D B=1 -D M=256 -D K2=200 " STRICT);
	passes(causal, "-D B=1 -D M=512 -D K2=512");
	passes(causal, "-D B=1 -D M=512 -D K2=512 " STRICT);
	passes(causal, "-D B=1 -D M=300 -D K2=300");
	passes(asked("vanilla_attention_causal_sw_16x16x16"), "-D B=1 -D M=512 -D K2=512 " STRICT);
	passes(asked("alibi_attention_16x16x16"), "");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("passes/plan/qk_ahead");
	TCase *t = tcase_create("qk_ahead");
	tcase_set_timeout(t, 300);
	tcase_add_test(t, plan_names_the_moved_mma);
	tcase_add_test(t, rule_decides_unasked_loops);
	tcase_add_test(t, rewritten_loops_pass);
	suite_add_tcase(s, t);
	return run_suite(s);
}
