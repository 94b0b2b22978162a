/* attention_report_test.c — `make bench-attention`'s report
 * (bench/attention_report.c) runs, every kernel's row is there with numbers
 * that parse and hold together, and its figures are the compiler's: the
 * registers and waves per SIMD of a row are what `wavecc compile --stats`
 * says, the instruction classes add up to the loop, and inst/MFMA is the
 * loop over its MFMAs. The report takes about a second per target. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../test.h"

static const char *const kernels[] = {"vanilla 16x16x16 (Wave, 128x64, K2 by 64)",
	"vanilla 32x32x8 (Wave, 128x64, K2 by 64)", "causal sliding window 16x16x16 (Wave)", "examples/attention.json",
	"decode phase 0 16x16x16 (Wave) *", "clang-19 -O3 gemm_lds.cl (reference)"};

typedef struct Res {
	int vgpr, agpr, sgpr, lds, waves, loop, mfma;
	double per_mfma, ratio, cycles, xdl, xdl_ratio;
} Res;

/* The line of out that starts with name (first from `from`); NULL if none. */
static const char *row(const char *out, const char *from, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = from ? from : out; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, name, n) == 0 && p[n] == ' ')
			return p + n;
	return NULL;
}

/* The value of `key` in the --stats report. */
static int stat_int(const char *out, const char *key)
{
	const char *p = row(out, NULL, key);
	ck_assert_msg(p != NULL, "--stats has no %s", key);
	return atoi(p);
}

START_TEST(report_parses)
{
	const char *mcpu = _i ? "gfx90a" : "gfx942";
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s/bench/attention_report' '%s' --mcpu %s", test_root(), test_build(),
		test_bin(), mcpu);
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 0, "attention_report on %s: status %d\n%s%s", mcpu, r.status, r.out, r.err);
	const char *classes = strstr(r.out, "\nMain loop instructions by class");
	ck_assert_msg(classes != NULL, "no class table\n%s", r.out);
	for (size_t i = 0; i < ARRAY_LEN(kernels); i++) {
		const char *p = row(r.out, NULL, kernels[i]);
		ck_assert_msg(p != NULL && p < classes, "%s: no row for %s\n%s", mcpu, kernels[i], r.out);
		Res x;
		int got = sscanf(p, "%d %d %d %d %d %d %d %lf %lfx %lf %lf%% %lfx", &x.vgpr, &x.agpr, &x.sgpr, &x.lds,
			&x.waves, &x.loop, &x.mfma, &x.per_mfma, &x.ratio, &x.cycles, &x.xdl, &x.xdl_ratio);
		ck_assert_msg(got == 12, "%s: %s: %d numbers parse\n%s", mcpu, kernels[i], got, r.out);
		ck_assert_msg(x.vgpr > 0 && x.vgpr <= 512 && x.agpr >= 0 && x.sgpr > 0 && x.lds >= 0, "%s: %s", mcpu,
			kernels[i]);
		ck_assert_msg(x.waves >= 1 && x.waves <= 8, "%s: %s: %d waves per SIMD", mcpu, kernels[i], x.waves);
		ck_assert_msg(x.mfma > 0 && x.loop > x.mfma, "%s: %s: %d MFMAs in %d", mcpu, kernels[i], x.mfma, x.loop);
		ck_assert_msg(fabs(x.per_mfma - (double)x.loop / x.mfma) < 0.051, "%s: %s: inst/MFMA %g", mcpu,
			kernels[i], x.per_mfma);
		ck_assert_msg(x.cycles > 0 && x.xdl > 0 && x.xdl <= 100 && x.ratio > 0 && x.xdl_ratio > 0, "%s: %s", mcpu,
			kernels[i]);
		/* the instruction classes of the loop add up to it */
		const char *c = row(r.out, classes, kernels[i]);
		ck_assert_msg(c != NULL, "%s: no class row for %s", mcpu, kernels[i]);
		int sum = 0, v, n;
		while (sscanf(c, "%d%n", &v, &n) == 1) {
			sum += v;
			c += n;
		}
		ck_assert_msg(sum == x.loop, "%s: %s: classes add up to %d, the loop has %d", mcpu, kernels[i], sum,
			x.loop);
		if (i == 0) { /* the figures are the compiler's */
			CmdResult s = test_wavecc("compile tests/driver/wave/vanilla_attention_16x16x16.json --mcpu %s --stats "
						  "-o '%s/k.hsaco'",
				mcpu, test_tmpdir(_i ? "attention_report_90a" : "attention_report_942"));
			ck_assert_msg(s.status == 0, "%s%s", s.out, s.err);
			ck_assert_int_eq(x.vgpr, stat_int(s.out, "vgpr"));
			ck_assert_int_eq(x.sgpr, stat_int(s.out, "sgpr"));
			ck_assert_int_eq(x.lds, stat_int(s.out, "lds bytes"));
			ck_assert_int_eq(x.waves, stat_int(s.out, "waves per SIMD"));
			cmd_result_free(&s);
		}
	}
	cmd_result_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bench.attention_report");
	TCase *tc = tcase_create("report");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, report_parses, 0, 2);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
