/* priority_test.c — s_setprio around a loop's chained second product
 * (passes/plan/pingpong.c decides, passes/machine/priority.c emits).
 *
 * Wave's vanilla attention: in the loop, s_setprio 1 right before the first
 * P·V MFMA (note acc_out), s_setprio 0 right before the trip's first use of
 * the Q·Kᵀ scores, after the first MFMA, and s_setprio 0 after the loop;
 * nothing else. A GEMM's loop (no MMA reads another's result) gets none.
 * The kernel with its priorities passes on the emulator on both targets
 * (gfx90a in the strict modes). */
#include <stdlib.h>
#include <string.h>

#include "../../test.h"

static int count(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

/* The next instruction line after p (comments, and the waits and nops
 * the later passes put before an instruction, skipped). */
static const char *next_inst(const char *p)
{
	for (p = strchr(p, '\n'); p; p = strchr(p + 1, '\n')) {
		const char *q = p + 1;
		while (*q == '\t' || *q == ' ')
			q++;
		if (*q && *q != '/' && *q != '\n' && strncmp(q, "s_waitcnt", 9) != 0 && strncmp(q, "s_nop", 5) != 0)
			return q;
	}
	return "";
}

START_TEST(attention_loop_pingpong)
{
	CmdResult r = test_wavecc("compile tests/driver/wave/vanilla_attention_16x16x32_k8.json -D B=8 -D M=4096 "
				  "-D K2=4096 -D N=128 -D BLOCK_K2=32 %s -S -o -",
		_i ? "--mcpu gfx90a" : "");
	ck_assert_msg(r.status == 0, "%s", r.err);
	char *as = r.out;
	ck_assert_int_eq(count(as, "s_setprio 1"), 1);
	ck_assert_int_eq(count(as, "s_setprio 0"), 2);
	char *br = strstr(as, "s_cbranch_scc1 .LBB_");
	ck_assert_ptr_nonnull(br);
	char label[32], def[40];
	ck_assert(sscanf(br, "s_cbranch_scc1 %30s", label) == 1);
	snprintf(def, sizeof def, "\n%s:", label);
	char *top = strstr(as, def);
	ck_assert_ptr_nonnull(top);
	const char *up = strstr(top, "s_setprio 1"), *low = strstr(top, "s_setprio 0");
	const char *first_mfma = strstr(top, "v_mfma");
	ck_assert(up && low && first_mfma && up < br && low < up && first_mfma < low);
	/* raised right before the first P·V MFMA, after the comment naming it */
	ck_assert(strncmp(next_inst(up), "v_mfma", 6) == 0);
	const char *c = up;
	while (c > top && strncmp(c, "// ", 3) != 0)
		c--;
	ck_assert(strncmp(c, "// acc_out", 10) == 0);
	/* lowered at a VALU instruction (the scores' first use), normal after
	 * the loop */
	ck_assert(strncmp(next_inst(low), "v_", 2) == 0 && strncmp(next_inst(low), "v_mfma", 6) != 0);
	ck_assert_ptr_nonnull(strstr(br, "s_setprio 0"));
	cmd_result_free(&r);
}
END_TEST

START_TEST(gemm_loop_unchanged)
{
	CmdResult r = test_wavecc("compile tests/driver/wave/explicit_shared_gemm.json -S -o -");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "v_mfma"));
	ck_assert_ptr_null(strstr(r.out, "s_setprio"));
	cmd_result_free(&r);
}
END_TEST

START_TEST(attention_runs)
{
	CmdResult r = test_wavecc("run tests/driver/wave/vanilla_attention_16x16x32_k8.json -D B=1 -D BLOCK_K2=32 "
				  "--atol 1e-3 --rtol 1e-3 %s",
		_i ? "--mcpu gfx90a --wave-order random --wg-order random --fill garbage --memory late --races --canary"
		   : "");
	ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("passes/machine/priority");
	TCase *tc = tcase_create("priority");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, attention_loop_pingpong, 0, 2);
	tcase_add_test(tc, gemm_loop_unchanged);
	tcase_add_loop_test(tc, attention_runs, 0, 2);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
