/* sweep_test.c — `wavecc compile` with several kernels and --sweep: one
 * file pair and one line per variant, each code object equal to compiling
 * the variant alone with -D, runnable through its descriptor; a rejected
 * variant fails alone (exit 1, others written); usage errors exit 2. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../test.h"


static char *slurp(const char *path, size_t *len)
{
	char *b = read_file(path, len);
	ck_assert_msg(b, "cannot read %s", path);
	return b;
}

START_TEST(sweep_writes_each_variant)
{
	const char *dir = test_tmpdir("sweep");
	CmdResult r = test_wavecc("compile examples/copy_dynamic.json --sweep M=16,111 --sweep N=100,813,64 -o '%s/out'", dir);
	ck_assert_msg(r.status == 0, "%s", r.err);
	/* 2 x 3 lines in order: the first sweep varies slowest */
	const char *want[] = {"M=16.N=100", "M=16.N=813", "M=16.N=64", "M=111.N=100", "M=111.N=813", "M=111.N=64"};
	const char *p = r.out;
	for (int i = 0; i < 6; i++) {
		char line[128];
		snprintf(line, sizeof line, "copy_dynamic.%s.hsaco vgpr ", want[i]);
		const char *at = strstr(p, line);
		ck_assert_msg(at, "no line %s in order:\n%s", line, r.out);
		p = at + 1;
	}
	cmd_result_free(&r);
	/* each variant is the one -D gives alone */
	for (int i = 0; i < 6; i++) {
		int M = i < 3 ? 16 : 111, N = (int[]){100, 813, 64}[i % 3];
		r = test_wavecc("compile examples/copy_dynamic.json -D M=%d -D N=%d -o '%s/alone.hsaco'", M, N, dir);
		ck_assert_msg(r.status == 0, "%s", r.err);
		cmd_result_free(&r);
		char a[4096], b[4096];
		snprintf(a, sizeof a, "%s/out/copy_dynamic.%s.hsaco", dir, want[i]);
		snprintf(b, sizeof b, "%s/alone.hsaco", dir);
		size_t la, lb;
		char *ba = slurp(a, &la), *bb = slurp(b, &lb);
		ck_assert_msg(la == lb && memcmp(ba, bb, la) == 0, "%s differs from compiling it alone", a);
		free(ba);
		free(bb);
	}
	/* the descriptor names its code object beside it: it runs; it carries
	 * the op table (docs/launch-format.md) as compiling alone writes it */
	r = test_wavecc("run '%s/out/copy_dynamic.M=111.N=813.launch.json'", dir);
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
	char lp[4096];
	snprintf(lp, sizeof lp, "%s/out/copy_dynamic.M=111.N=813.launch.json", dir);
	size_t ll;
	char *lt = slurp(lp, &ll);
	ck_assert_ptr_nonnull(strstr(lt, "\"ops\": {\"code_bytes\""));
	free(lt);
}
END_TEST

START_TEST(several_kernels_fail_alone)
{
	const char *dir = test_tmpdir("sweep_many");
	CmdResult r = test_wavecc("compile examples/add.json tests/driver/data/softmax_big_workgroup.json examples/copy.json -S -o '%s'", dir);
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.out, "add.s vgpr") && strstr(r.out, "softmax_big_workgroup FAILED") && strstr(r.out, "copy.s vgpr"),
		"%s", r.out);
	ck_assert_msg(strstr(r.err, "softmax_big_workgroup.json:13:5: error: constraints[0]"), "%s", r.err);
	cmd_result_free(&r);
	char p[4096];
	snprintf(p, sizeof p, "%s/copy.s", dir);
	size_t len;
	char *s = slurp(p, &len);
	ck_assert_msg(strstr(s, ".amdgcn_target") && !strstr(s, "wavecc_v"), "the assembly is the plain one");
	free(s);
}
END_TEST

START_TEST(sweep_usage_errors)
{
	static const char *const bad[][2] = {
		{"compile examples/copy_dynamic.json --sweep M", "--sweep needs SYM=V1,V2"},
		{"compile examples/copy_dynamic.json --sweep M=1,,2", "bad value list"},
		{"compile examples/copy_dynamic.json --sweep M=1, --sweep N=2", "bad value list"},
		{"compile examples/copy_dynamic.json --sweep M=1 --sweep M=2", "--sweep M given twice"},
		{"compile examples/copy_dynamic.json --sweep M=x", "--sweep"},
		{"compile examples/copy_dynamic.json --sweep M=4 --sweep N=8 --stats", "for one kernel"},
		{"compile examples/add.json examples/copy.json --launch x.json", "for one kernel"},
		{"compile examples/copy_dynamic.json --sweep Q=4 --sweep N=8", "has no symbol Q"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CmdResult r = test_wavecc("%s", bad[i][0]);
		ck_assert_msg(r.status == 2 && strstr(r.err, bad[i][1]), "%s: status %d: %s", bad[i][0], r.status, r.err);
		cmd_result_free(&r);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cli/sweep");
	TCase *t = tcase_create("core");
	tcase_set_timeout(t, 120);
	tcase_add_test(t, sweep_writes_each_variant);
	tcase_add_test(t, several_kernels_fail_alone);
	tcase_add_test(t, sweep_usage_errors);
	suite_add_tcase(s, t);
	return run_suite(s);
}
